import { readStore, trustStorePath } from '../../workspace/trust-store-file.js';
import { okCheck, plural, problem, type DoctorCheck } from './check.js';
import { shellWord } from '../../text/shell-word.js';

/**
 * engine.md T1, T3: the workspace trust store of the user whose home is `userHome`. Missing: ok
 * (no workspace is trusted). Invalid: a warning naming the file, since every workspace then counts
 * as untrusted and `hookpm trust` refuses to overwrite it (E_TRUST_STORE).
 */
export async function checkTrustStore(userHome: string): Promise<DoctorCheck> {
  const file = trustStorePath(userHome);
  const read = await readStore(file);
  if (read.status === 'missing')
    return okCheck('trust-store', `${file} does not exist: no workspace is trusted`);
  if (read.status === 'valid') {
    const count = Object.keys(read.store.projects).length;
    return okCheck('trust-store', `${file} is valid (${plural(count, 'trusted workspace')})`);
  }
  return problem(
    'trust-store',
    'warning',
    `the trust store ${file} is not valid (${read.reason}): it is ignored, so no workspace counts as trusted, and \`hookpm trust\` will not overwrite it`,
    {
      code: 'trust_store_invalid',
      fix: `Repair ${file} (expected {"version":1,"projects":{...}}), or move it aside (\`mv ${shellWord(file)} ${shellWord(`${file}.bad`)}\`) and trust your workspaces again with \`hookpm trust <dir>\`.`,
    },
  );
}
