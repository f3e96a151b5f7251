/**
 * What a failed start tells the operator: a setting that cannot be used is one line naming the
 * variable, its value and why (exit code 2, no stack trace); anything else is a fault of Parley,
 * told with its stack (exit code 1).
 */
import { ConfigError } from './config-values.js';

/** A promise's rejection handler: the failure becomes a ConfigError of `variable` (with `why`, else the error's own message). */
export function unusable(variable: string, value: string, why?: string): (error: unknown) => never {
  return (error: unknown) => {
    throw new ConfigError(variable, value, why ?? (error instanceof Error ? error.message : String(error)));
  };
}

export interface StartupFailure {
  line: string;
  exitCode: number;
}

export function startupFailure(error: unknown): StartupFailure {
  if (error instanceof ConfigError) return { line: `Parley cannot start: ${error.message}`, exitCode: 2 };
  // A start the environment does not allow (no room on the volume): a sentence, not a stack.
  if ((error as { exitCode?: unknown }).exitCode === 2) return { line: `Parley cannot start: ${(error as Error).message}`, exitCode: 2 };
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { line: `Parley failed to start: ${text}`, exitCode: 1 };
}
