// `mcp-host task get|result|cancel ID TARGET`: one task of a server.
import { toResultView } from '../../core/results';
import { openConnection, withConnection } from '../connect';
import { EXIT } from '../errors';
import { usageError, type ParsedArgs } from '../options';
import { asLines, resultText } from '../output';
import { resolveTarget, type CliIo } from '../target';
import { taskCommand, TASK_ACTIONS, type TaskAction } from '../tasks';

export async function taskCommandOf(a: ParsedArgs, io: CliIo): Promise<number> {
  const [action, taskId, ...extra] = a.positional;
  if (!TASK_ACTIONS.includes(action as TaskAction) || !taskId) throw usageError('task needs get, result or cancel, then the task id');
  if (extra.length) throw usageError(`unexpected argument ${extra[0]}`);
  const cli = await openConnection(await resolveTarget(a, io), a, io);
  return withConnection(cli, async () => {
    const result = await taskCommand(cli.connection, action as TaskAction, taskId, {
      json: !!a.json,
      signal: io.interrupt,
      timeoutMs: a.timeoutMs,
      stdout: cli.stdout,
    });
    if (!result) return EXIT.ok;
    const view = toResultView(result);
    (view.isError ? cli.stderr : cli.stdout).write(asLines(a.json ? JSON.stringify(result, null, 2) : resultText(view)));
    return view.isError ? EXIT.toolError : EXIT.ok;
  });
}
