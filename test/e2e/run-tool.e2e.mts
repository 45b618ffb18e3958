import { test } from 'node:test';
import { describePngFromWorkspace } from './steps.mjs';
import { withWorkbench } from './workbench.mjs';

test('describe_file run from the palette on a workspace PNG shows its type, size and dimensions', async () => {
  await withWorkbench('1-run-tool-from-palette', {}, describePngFromWorkspace);
});
