import { withoutLinkHandlers } from '../agents/without-links.js';
import { diagnostic, type Diagnostic, type Origin } from '../hooks/diagnostic.js';
import type { SourceDocument } from '../hooks/types.js';
import { findProjectRoot } from './find-project-root.js';
import { hooksFileIn, realPathOrNull } from './hooks-file-path.js';
import { readHooksFile } from './read-hooks-file.js';

/**
 * What became of the project file: `untrusted` (exists, not read: S4), `same-as-user` (read once,
 * as the user file: S4), `failed` (S5), `loaded` (parsed; possibly with diagnostics), `changed`
 * (its bytes are not the bytes trust was granted to: not loaded, T6).
 */
export type ProjectFileStatus =
  'missing' | 'untrusted' | 'same-as-user' | 'failed' | 'loaded' | 'changed';

export interface HookSources {
  /** The project root (S2): every handler's CLAUDE_PROJECT_DIR. */
  projectDir: string;
  /** User and project documents. Callers append plugin documents; buildSnapshot orders all (S3). */
  sources: SourceDocument[];
  diagnostics: Diagnostic[];
  projectFile: { path: string; status: ProjectFileStatus; sha256: string | null };
  userFile: string;
}

export interface ReadHookSourcesOptions {
  cwd: string;
  /** The user's home directory: the user file is `<home>/.deepagents/hooks.json`. */
  home: string;
  /** Whether the workspace is trusted (docs/reference/rules/engine.md#workspace-trust decides; this only obeys). */
  trustProject: boolean;
  /**
   * T6: the SHA-256 hex of the project file's bytes when trust was checked (null: it was missing or
   * unreadable then). When given, a project file whose loaded bytes hash otherwise is not loaded.
   */
  expectedProjectSha256?: string | null;
}

/**
 * engine.md S1, S4, S5: the project file (when trusted) and the user file, legacy shapes allowed,
 * less the handlers `hookpm link` wrote (agents/without-links.ts).
 */
export async function readHookSources(options: ReadHookSourcesOptions): Promise<HookSources> {
  const projectDir = await findProjectRoot(options.cwd);
  const projectPath = hooksFileIn(projectDir);
  const userPath = hooksFileIn(options.home);
  const result: HookSources = {
    projectDir,
    sources: [],
    diagnostics: [],
    projectFile: { path: projectPath, status: 'missing', sha256: null },
    userFile: userPath,
  };
  const [projectReal, userReal] = await Promise.all([
    realPathOrNull(projectPath),
    realPathOrNull(userPath),
  ]);
  if (projectReal !== null && projectReal === userReal) {
    result.projectFile.status = 'same-as-user';
  } else if (projectReal !== null && !options.trustProject) {
    result.projectFile.status = 'untrusted';
  } else if (options.trustProject) {
    const project = await addSource(result, projectPath, 'project', options.expectedProjectSha256);
    result.projectFile.status = project.status;
    result.projectFile.sha256 = project.sha256;
  }
  await addSource(result, userPath, 'user');
  return result;
}

async function addSource(
  into: HookSources,
  file: string,
  origin: Origin,
  expectedSha256?: string | null,
): Promise<{ status: 'missing' | 'failed' | 'loaded' | 'changed'; sha256: string | null }> {
  const read = await readHooksFile({ file, origin, legacy: true });
  if (read.status === 'missing') return { status: 'missing', sha256: null };
  if (read.status === 'failed') {
    into.diagnostics.push(read.diagnostic);
    return { status: 'failed', sha256: null };
  }
  if (expectedSha256 !== undefined && read.sha256 !== expectedSha256) {
    const message = `${file} changed after workspace trust was checked; the project hooks are not loaded (run the command again to re-check trust)`;
    into.diagnostics.push(
      diagnostic('project_changed', 'warning', message, { origin, path: file }),
    );
    return { status: 'changed', sha256: read.sha256 };
  }
  for (const d of read.diagnostics) into.diagnostics.push(d);
  if (read.parsed.config !== null)
    into.sources.push({ origin, file, config: withoutLinkHandlers(read.parsed.config) });
  return { status: 'loaded', sha256: read.sha256 };
}
