import { HookpmError } from '../errors.js';
import type { PolicyInForce } from './policy.js';
import { describeRefusal, type PolicyRefusal } from './policy-rules.js';

/**
 * A16: the E_POLICY refusal of `what` (`installing guard@examples`), naming the rule and the file;
 * the command changes nothing.
 */
export function policyRefused(
  inForce: PolicyInForce,
  what: string,
  refusal: PolicyRefusal,
  details: Record<string, unknown> = {},
): HookpmError {
  return new HookpmError(
    'E_POLICY',
    `${what} is refused by the administrator's policy: ${describeRefusal(refusal)} in ${inForce.file}`,
    {
      ...details,
      rule: refusal.rule,
      entry: refusal.entry,
      file: inForce.file,
      hint: 'The policy is set by your administrator; `hookpm policy` shows it. Ask them to change it.',
    },
  );
}

/** A11: the E_POLICY of a command the policy could have refused while its file cannot be used. */
export function policyUnusable(
  inForce: Extract<PolicyInForce, { status: 'invalid' }>,
  what: string,
): HookpmError {
  return new HookpmError(
    'E_POLICY',
    `${what} is refused: the administrator's policy ${inForce.file} cannot be used (${inForce.problem}), so hookpm fails closed`,
    {
      rule: 'policy-file',
      file: inForce.file,
      hint: 'Ask your administrator to fix the file; `hookpm policy` and `hookpm doctor` show what is wrong.',
    },
  );
}
