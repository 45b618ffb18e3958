// Sampling in the CLI: declined by default (the server is told why), or answered by a command of the user's
// (--sampling-command CMD): each request goes to it as JSON on stdin, its stdout is the JSON answer. At most
// SAMPLING_QUEUE_LIMITS.cli.running commands run at once; further requests wait their turn, a bounded number.
import { spawn } from 'node:child_process';
import { decliningSamplingHandler, SamplingDeclinedError, type SamplingHandler, type SamplingResult } from '../core/sampling';
import { queuedSamplingHandler, SAMPLING_QUEUE_LIMITS } from '../core/sampling/queue';

const ANSWER_MAX_BYTES = 10 * 1024 * 1024;
const COMMAND_TIMEOUT_MS = 5 * 60_000;

export function cliSamplingHandler(command: string | undefined, o: { cwd: string; env: NodeJS.ProcessEnv }): SamplingHandler {
  if (command === undefined) {
    return decliningSamplingHandler('mcp-host declines sampling unless it is given --sampling-command CMD');
  }
  return queuedSamplingHandler(
    (request, ctx) =>
      new Promise<SamplingResult>((resolve, reject) => {
        const child = spawn(command, { shell: true, cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
        const chunks: Buffer[] = [];
        let size = 0;
        let stderr = '';
        const fail = (why: string) => {
          child.kill('SIGTERM');
          reject(new SamplingDeclinedError(`--sampling-command ${why}`));
        };
        const timer = setTimeout(() => fail(`gave no answer within ${COMMAND_TIMEOUT_MS / 1000} s`), COMMAND_TIMEOUT_MS);
        const onAbort = () => fail('was stopped: the server cancelled the request');
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        child.on('close', () => ctx.signal.removeEventListener('abort', onAbort));
        child.stdout.on('data', (d: Buffer) => {
          size += d.length;
          if (size > ANSWER_MAX_BYTES) fail(`answered more than ${ANSWER_MAX_BYTES} bytes`);
          else chunks.push(d);
        });
        child.stderr.on('data', (d: Buffer) => {
          if (stderr.length < 2000) stderr += d.toString('utf8');
        });
        child.on('error', (e) => {
          clearTimeout(timer);
          reject(new SamplingDeclinedError(`--sampling-command could not run: ${e.message}`));
        });
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code !== 0) {
            reject(new SamplingDeclinedError(`--sampling-command exited with ${code}${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`));
            return;
          }
          let answer: unknown;
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            reject(new SamplingDeclinedError('--sampling-command did not print a JSON answer'));
            return;
          }
          const a = answer as Partial<SamplingResult> | null;
          if (!a || typeof a !== 'object' || typeof a.model !== 'string' || a.content === undefined) {
            reject(new SamplingDeclinedError('--sampling-command must print {"role":"assistant","content":{...},"model":"..."}'));
            return;
          }
          resolve({ ...a, role: 'assistant', content: a.content, model: a.model });
        });
        child.stdin.on('error', () => undefined);
        child.stdin.end(JSON.stringify(request));
      }),
    SAMPLING_QUEUE_LIMITS.cli,
  );
}
