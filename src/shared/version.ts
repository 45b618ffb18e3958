// The host's version, read from package.json alone: the extension, the CLI, the connection and the webview all
// report it from here. The bundles keep only this field of package.json (esbuild shakes a JSON import by field).
import { version } from '../../package.json';

/** This build's version (package.json `version`). */
export const HOST_VERSION: string = version;
