// Why the command failed, in the action's terms: the command's own error line (the build's failure,
// the refused key, the bad flag), taken from the error runCli reports (src/cli/run.ts onFailure), with a
// setting the action's inputs give named as the input to fix rather than the CLI's variable or flag.
import { CommanderError } from 'commander';
import { API_KEYS_PAGE } from '../../src/config/settings.js';
import { keyFaultText } from '../../src/config/validators.js';
import type { RunFailure } from '../../src/cli/context.js';
import { ConfigError } from '../../src/errors.js';

export interface KeyInputs {
  /** A key was given at all (the input, or MINTLIFY_ADMIN_API_KEY in the step's env). */
  apiKey: boolean;
  /** It came from the `api-key` input. */
  apiKeyFromInput: boolean;
}

/** One line saying why; the caller adds the exit code. */
export function failureText(failure: RunFailure | undefined, code: number, keys: KeyInputs): string {
  if (failure === undefined) return `mint-admin exited with code ${code}`;
  const { error, line } = failure;
  // Commander's own refusals (an unknown option, a missing argument): the command line is the input.
  if (error instanceof CommanderError) return `the \`command\` input: ${line}`;
  if (error instanceof ConfigError && error.setting === 'api-key') {
    if (!keys.apiKey)
      return `set the \`api-key\` input to the admin key, from a secret (\`api-key: \${{ secrets.MINTLIFY_ADMIN_API_KEY }}\`); create one at ${API_KEYS_PAGE}`;
    if (keys.apiKeyFromInput && error.keyFault) return keyFaultText(error.keyFault, 'the `api-key` input');
  }
  if (error instanceof ConfigError && error.setting === 'project-id') {
    return "set the `project-id` input (or MINTLIFY_PROJECT_ID in the step's env, or --project in `command`)";
  }
  return line;
}
