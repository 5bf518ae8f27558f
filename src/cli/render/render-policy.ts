import type { PolicyInForce } from '../../policy/policy.js';

/**
 * `hookpm policy`: the file and where its name comes from, then the policy (or the problem), and
 * what `sandbox.require` means when it is set (A18).
 */
export function formatPolicy(inForce: PolicyInForce): string {
  const from = inForce.from === 'env' ? 'named by HOOKPM_POLICY_FILE' : "the system's location";
  const head = `policy file: ${inForce.file} (${from})`;
  if (inForce.status === 'absent')
    return `${head}\nno policy: the file does not exist, so nothing is restricted`;
  if (inForce.status === 'invalid')
    return `${head}\nthe file cannot be used: ${inForce.problem}\nhookpm fails closed: no plugin runs, and commands the policy could refuse are refused`;
  const shown = `${head}\n${JSON.stringify(inForce.policy, null, 2)}`;
  // A18: the one key whose effect is not plain from its JSON.
  if (inForce.policy.sandbox?.require !== true) return shown;
  return `${shown}\nsandbox.require: only plugins that declare capabilities, or that you confined with \`hookpm enable <plugin> --confine ...\`, may be enabled and run`;
}
