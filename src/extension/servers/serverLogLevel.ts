// A server's log level follows its output channel's: the level picked in the Output view (or
// "Developer: Set Log Level…") is the least severe message asked of the server.
import * as vscode from 'vscode';
import type { McpLogLevel } from '../../core/connection/serverLog';

export function mcpLevelOfChannel(level: vscode.LogLevel): McpLogLevel {
  switch (level) {
    case vscode.LogLevel.Trace:
    case vscode.LogLevel.Debug:
      return 'debug';
    case vscode.LogLevel.Info:
      return 'info';
    case vscode.LogLevel.Warning:
      return 'warning';
    case vscode.LogLevel.Error:
      return 'error';
    // Off: only what the server itself deems an emergency.
    default:
      return 'emergency';
  }
}
