import type { PolicyInForce } from '../../../policy/policy.js';
import { readPolicyFile } from '../../../store/policy-file.js';
import { environmentOf, type OperationContext } from '../context/operation-context.js';

/**
 * The policy in force for this command (docs/reference/rules/policy.md#a10): `ctx.policy`, read
 * from the context's environment the first time a step asks and kept in the context, so a command
 * reads the file once.
 */
export function policyOf(ctx: OperationContext): PolicyInForce {
  ctx.policy ??= readPolicyFile(environmentOf(ctx).env);
  return ctx.policy;
}
