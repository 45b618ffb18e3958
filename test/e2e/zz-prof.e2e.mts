import { test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withWorkbench } from './workbench.mjs';
function treeCpu(): number {
  const parent = new Map<number, number>(); const cpu = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try { const s = readFileSync(`/proc/${d}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); parent.set(+d, +f[1]!); cpu.set(+d, (+f[11]! + +f[12]! + +f[13]! + +f[14]!) / 100); } catch {}
  }
  let t = 0;
  for (const [pid, c] of cpu) { let p = pid; for (let i = 0; i < 30 && p > 1; i++) { if (p === process.pid) { t += c; break; } p = parent.get(p) ?? 0; } }
  return t;
}
const extra = JSON.parse(process.env.ZZ_SETTINGS ?? '{}');
test('idle', async () => {
  await withWorkbench('idle-prof', { settings: extra }, async (wb) => {
    await wb.runCommand('MCP: Start Server'); await wb.pick('demo');
    await wb.page.waitForTimeout(12000);
    console.log('CPU', treeCpu().toFixed(1), JSON.stringify(extra).slice(0, 40));
    const logs = join(wb.server.userDataDir, 'logs');
    for (const e of readdirSync(logs, { recursive: true, withFileTypes: true })) if (e.isFile() && e.name === 'exthost.log') {
      const acts = readFileSync(join(e.parentPath, e.name), 'utf8').split('\n').filter((l) => /activat/i.test(l)).map((l) => l.slice(24, 160));
      console.log(acts.join('\n'));
    }
  });
});
