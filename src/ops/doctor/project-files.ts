import { HookpmError } from '../../errors.js';
import { canonicalProjectRoot } from '../../workspace/canonical-root.js';
import { readProjectFiles } from '../../workspace/project-files.js';
import { problem, type DoctorCheck } from './check.js';

/**
 * docs/guides/projects.md: the `hookpm.json` and `hookpm.lock` of the project `cwd` is in, read as
 * every project command reads them. One that cannot be used (E_PROJECT_FILE: not strict JSON, an
 * unknown key, a range too long, ...; E_IO: a FIFO, no permission) is a warning with that error's
 * message and hint: the plugins already installed for the project still run, but `ci`, `install
 * --project` and `update --project` refuse the project until it is repaired. Nothing when the
 * project has neither file, and when they read well (the plugins' own checks say the rest).
 */
export async function checkProjectFiles(cwd: string): Promise<DoctorCheck[]> {
  const root = await canonicalProjectRoot(cwd).catch(() => null);
  if (root === null) return [];
  try {
    readProjectFiles(root);
    return [];
  } catch (error) {
    // E_PROJECT_FILE, or a file that cannot be read at all (a FIFO, no permission: E_IO).
    if (!(error instanceof HookpmError)) throw error;
    const fix = error.hint ?? 'Repair the file, or restore it from version control.';
    return [
      problem('project-files', 'warning', error.message, { code: 'project_file_invalid', fix }),
    ];
  }
}
