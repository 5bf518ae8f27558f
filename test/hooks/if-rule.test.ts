import { describe, expect, it } from 'vitest';
import { ifRuleHolds, parseIfRule } from '../../src/hooks/if-rule.js';
import type { IfRule } from '../../src/hooks/if-rule.js';
import { EVENT_NAMES, EVENTS } from '../../src/hooks/events.js';
import { MAX_READ_COMMAND } from '../../src/hooks/bash-subcommands.js';
import { homedir } from 'node:os';
import type { EventName } from '../../src/hooks/events.js';

function rule(text: string): IfRule {
  const result = parseIfRule(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.message}`);
  return result.rule;
}

function holds(
  text: string,
  tool: string,
  input: Record<string, unknown>,
  event: EventName = 'PreToolUse',
) {
  return ifRuleHolds(rule(text), event, { tool_name: tool, tool_input: input });
}

describe('the if predicate (engine.md F1-F3)', () => {
  it('F1: a rule is Tool or Tool(pattern)', () => {
    expect(rule('Bash(git *)')).toMatchObject({
      tool: { names: ['Bash'], prefixes: [] },
      pattern: 'git *',
    });
    expect(rule('  Edit  ')).toMatchObject({
      tool: { names: ['Edit'], prefixes: [] },
      pattern: null,
    });
    expect(rule('mcp__github__*')).toMatchObject({
      tool: { names: [], prefixes: ['mcp__github__'] },
      pattern: null,
    });
    expect(rule('Edit|Write(src/**)')).toMatchObject({
      tool: { names: ['Edit', 'Write'] },
      pattern: 'src/**',
    });
    expect(rule('Bash(echo (x))').pattern).toBe('echo (x)');
  });

  it('F1: the tool is compared like an exact matcher: no substrings, case-sensitive', () => {
    expect(holds('Bash', 'Bash', { command: 'ls' })).toBe(true);
    expect(holds('Bash', 'BashOutput', { command: 'ls' })).toBe(false);
    expect(holds('Bash', 'bash', { command: 'ls' })).toBe(false);
    expect(holds('Edit|Write', 'Write', { file_path: 'a' })).toBe(true);
    expect(holds('Read|Write', 'MultiEdit', { file_path: 'a' })).toBe(false);
  });

  it('F1: a tool name ending in * is a prefix', () => {
    expect(holds('mcp__github__*', 'mcp__github__create_issue', {})).toBe(true);
    expect(holds('mcp__github__*', 'mcp__gitlab__create_issue', {})).toBe(false);
    expect(holds('mcp__github__*(*)', 'mcp__github__x', {})).toBe(true);
  });

  // Claude Code's permissions page: `mcp__server` names every tool of the server, as
  // `mcp__server__*` does; read as one exact name it held for no tool, so its guard never ran.
  it('F1: a bare mcp__server names every tool of that server, as in Claude Code', () => {
    expect(holds('mcp__github', 'mcp__github__create_issue', {})).toBe(true);
    expect(holds('mcp__github', 'mcp__github', {})).toBe(true);
    expect(holds('mcp__github(*)', 'mcp__github__x', {})).toBe(true);
    expect(holds('Bash|mcp__github', 'mcp__github__x', {})).toBe(true);
    expect(holds('mcp__github', 'mcp__githubx__create_issue', {})).toBe(false);
    expect(holds('mcp__github', 'mcp__gitlab__create_issue', {})).toBe(false);
    expect(holds('mcp__github__create_issue', 'mcp__github__create_issue_x', {})).toBe(false);
  });

  it.each([
    ['Bash(git *)', 'Bash', { command: 'git push origin main' }, true],
    ['Bash(git *)', 'Bash', { command: 'echo git push' }, false],
    ['Bash(git commit:*)', 'Bash', { command: 'git commit -m wip' }, true],
    ['Bash(git commit:*)', 'Bash', { command: 'git push' }, false],
    ['Bash(npm run test:*)', 'Bash', { command: 'npm run test' }, true],
    ['Bash(*get_secret_value*)', 'Bash', { command: 'python -c "get_secret_value()"' }, true],
    ['Edit(src/**)', 'Edit', { file_path: 'src/a/b.ts' }, true],
    ['Edit(src/**)', 'Edit', { file_path: '/abs/src/a.ts' }, true],
    ['Edit(src/**)', 'Edit', { file_path: '/abs/lib/a.ts' }, false],
    ['Write(*.env)', 'Write', { file_path: 'config/.env' }, true],
    ['MultiEdit(*.ts)', 'MultiEdit', { file_path: 'x.ts' }, true],
    ['Read(/etc/*)', 'Read', { file_path: '/etc/passwd' }, true],
    ['Glob(**/*.ts)', 'Glob', { pattern: 'src/**/*.ts' }, true],
    ['Grep(TODO)', 'Grep', { pattern: 'TODO' }, true],
    ['Grep(TODO)', 'Grep', { pattern: 'TODO:' }, false],
    ['WebFetch(https://*.example.com/*)', 'WebFetch', { url: 'https://api.example.com/v1' }, true],
    ['WebFetch(https://*.example.com/*)', 'WebFetch', { url: 'http://api.example.com/v1' }, false],
  ])('F2: %s with %s %j holds: %s', (text, tool, input, expected) => {
    expect(holds(text, tool, input)).toBe(expected);
  });

  it('F2: the pattern reads the primary input of each tool, not another field', () => {
    expect(holds('Edit(src/*)', 'Edit', { command: 'src/x' })).toBe(false);
    expect(holds('Bash(ls)', 'Bash', { file_path: 'ls' })).toBe(false);
  });

  it('F2: a missing or non-string primary input never matches a pattern', () => {
    expect(holds('Bash(*)', 'Bash', {})).toBe(false);
    expect(holds('Bash(*)', 'Bash', { command: 5 })).toBe(false);
    expect(ifRuleHolds(rule('Bash(*)'), 'PreToolUse', { tool_name: 'Bash' })).toBe(false);
    expect(ifRuleHolds(rule('Bash'), 'PreToolUse', {})).toBe(false);
  });

  it('F2: for tools without a primary input the pattern must be *', () => {
    expect(holds('Task(*)', 'Task', {})).toBe(true);
    expect(parseIfRule('Task(review *)')).toMatchObject({ ok: false });
    expect(parseIfRule('mcp__github__*(create *)')).toMatchObject({ ok: false });
    expect(parseIfRule('Bash|Task(git *)')).toMatchObject({ ok: false });
  });

  it.each([
    '',
    '   ',
    'Bash(',
    'Bash(git *',
    'Bash()',
    'tool == "Edit"',
    'Ba*sh',
    '(git *)',
    'Bash(git *) && Edit',
    '|',
  ])('F3: %j cannot be parsed, with a message naming the rule', (text) => {
    const result = parseIfRule(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(JSON.stringify(text));
  });

  it('F3: on a non-tool event the rule never holds (fail closed)', () => {
    const nonTool = EVENT_NAMES.filter((event) => !EVENTS[event].tool);
    expect(nonTool).toHaveLength(8);
    for (const event of nonTool) {
      expect(
        ifRuleHolds(rule('Bash'), event, { tool_name: 'Bash', tool_input: { command: 'ls' } }),
      ).toBe(false);
    }
  });

  it('F3: on every tool event a holding rule holds', () => {
    for (const event of [
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionRequest',
    ] as const) {
      expect(holds('Bash(ls *)', 'Bash', { command: 'ls -la' }, event)).toBe(true);
    }
  });

  it('F2: the corpus rules parse and hold for the commands they name', () => {
    for (const text of [
      'Bash(aws secretsmanager get-secret-value*)',
      'Bash(curl*127.0.0.1:2773/secretsmanager/get*)',
      'Bash(gt submit:*)',
    ]) {
      expect(parseIfRule(text).ok).toBe(true);
    }
    expect(
      holds('Bash(aws secretsmanager get-secret-value*)', 'Bash', {
        command: 'aws secretsmanager get-secret-value --secret-id x',
      }),
    ).toBe(true);
  });

  it("F2, cli.md W4: a rule naming an alias of the tool (Codex's apply_patch as Edit) matches the files its patch names; a patch naming none holds", () => {
    const etc = rule('Edit(/etc/**)');
    const patch = (text: string, cwd?: string) =>
      ifRuleHolds(
        etc,
        'PreToolUse',
        { tool_name: 'apply_patch', tool_input: { command: text }, ...(cwd ? { cwd } : {}) },
        ['Write', 'Edit'],
      );
    expect(patch('*** Begin Patch\n*** Delete File: /etc/hosts\n*** End Patch')).toBe(true);
    expect(patch('*** Update File: src/a.ts\n*** Move to: /etc/cron.d/x\n')).toBe(true);
    expect(patch('*** Add File: ../../etc/x\r\n', '/home/u')).toBe(true);
    expect(patch('*** Add File: ../../etc/x\n', '/home/u/p/q')).toBe(false);
    expect(patch('*** Update File: src/a.ts\n+*** Update File: /etc/no\n', '/home/u')).toBe(false);
    expect(patch('not a patch')).toBe(true);
    // A patch naming more files than are read (1,000) holds: the one past them is not hidden.
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => `*** Add File: src/f${i}.ts\n+x\n`).join('');
    expect(patch(`${many(1_000)}*** Update File: /etc/passwd\n`, '/home/u')).toBe(true);
    expect(patch(`${many(1_001)}*** Update File: src/ok.ts\n`)).toBe(true);
    expect(patch(`${many(400)}*** Update File: src/ok.ts\n`, '/home/u')).toBe(false);
    // Without the alias, apply_patch is another tool; a bare alias rule holds for any patch.
    expect(ifRuleHolds(etc, 'PreToolUse', { tool_name: 'apply_patch', tool_input: {} })).toBe(
      false,
    );
    expect(
      ifRuleHolds(rule('Write'), 'PreToolUse', { tool_name: 'apply_patch', tool_input: {} }, [
        'Write',
      ]),
    ).toBe(true);
  });

  // Claude Code's hooks reference: an `if` rule has permission-rule syntax, and Claude Code (2.1.89
  // on) matches a Bash rule against each subcommand, so a guard on `Bash(git push *)` runs for
  // `ls && git push` and `FOO=bar git push` too; matching only the whole line skipped it (an allow).
  it('F2: a Bash pattern holds when one subcommand of the command matches, as in Claude Code', () => {
    for (const command of [
      'ls && git push origin main',
      'cd /tmp; git push origin main',
      'make || git push origin main',
      'echo x | git push origin main',
      'sleep 1 & git push origin main',
      'true\ngit push origin main',
      'FOO=bar git push origin main',
      "A=1 B='x y' git push origin main",
    ]) {
      expect(holds('Bash(git push *)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of [
      'echo "a && git push origin main"',
      "echo 'x; git push origin main'",
      'echo git push origin main',
      'ls && git status',
    ]) {
      expect(holds('Bash(git push *)', 'Bash', { command }), command).toBe(false);
    }
    expect(holds('Edit(src/*)', 'Edit', { file_path: 'a; src/x' })).toBe(false);
  });

  // Claude Code's permissions page: Read and Edit rules follow the gitignore specification against
  // the absolute path the tool names: `//p` from the root, `~/p` from home, `/p` from the project
  // root, `p` and `./p` from the current directory, a name without `/` at any depth. Matched
  // against the path as written, `Edit(src/**)` never held for Claude Code's absolute file_path.
  it.each([
    ['Edit(src/**)', '/home/u/p/src/a/b.ts', true],
    ['Edit(./src/**)', '/home/u/p/src/a.ts', true],
    ['Edit(src/**)', '/home/u/p/lib/src/a.ts', false],
    ['Edit(src/**)', '/home/u/other/src/a.ts', false],
    ['Edit(src/**)', 'src/a.ts', true],
    ['Edit(src/**)', './src/a.ts', true],
    ['Edit(src/**)', '/home/u/p/lib/../src/a.ts', true],
    ['Edit(src/**)', '/home/u/p/src/../lib/a.ts', false],
    ['Edit(src/**)', 'lib/../src/a.ts', true],
    ['Edit(src/**)', 'C:\\proj\\src\\a.ts', false],
    ['Edit(src)', '/home/u/p/src/a.ts', true],
    ['Edit(src/)', '/home/u/p/src/a.ts', true],
    ['Read(./secrets/**)', '/home/u/p/secrets/k.pem', true],
    ['Read(./secrets)', '/home/u/p/secrets/k.pem', true],
    ['Read(secrets/)', '/home/u/p/a/secrets/k.pem', true],
    ['Read(.env)', '/home/u/p/.env', true],
    ['Read(.env)', '/home/u/p/config/.env', true],
    ['Read(.env)', '/home/u/p/.envrc', false],
    ['Read(*.pem)', '/home/u/p/a/b.pem', true],
    ['Edit(/src/**)', '/home/u/p/src/a.ts', true],
    ['Edit(/src/**)', '/src/a.ts', true],
    ['Read(//etc/**)', '/etc/passwd', true],
    ['Read(//etc/**)', '/home/u/p/etc/x', false],
    ['Read(~/.ssh/**)', '/home/u/.ssh/id_rsa', true],
    ['Read(~/.ssh/**)', '~/.ssh/id_rsa', true],
    ['Read(~/.ssh/**)', '/home/u/p/.ssh/id_rsa', false],
    ['Read(../shared/**)', '/home/u/shared/x', true],
    ['Write(src/**)', '/home/u/p/src/a.ts/', true],
    ['Edit(src/**/test/**)', '/home/u/p/src/test/a.ts', true],
    ['Edit(src/**/test/**)', '/home/u/p/src/a/b/test/a.ts', true],
    ['Read(**/.env)', '/home/u/p/.env', true],
    ['Read(./**/secrets/*)', '/home/u/p/secrets/k', true],
  ])('F2: %s holds for %s in /home/u/p, home /home/u: %s', (text, file_path, expected) => {
    const payload = { tool_name: 'Edit', tool_input: { file_path }, cwd: '/home/u/p' };
    const tool = text.slice(0, text.indexOf('('));
    const on = { ...payload, tool_name: tool };
    expect(ifRuleHolds(rule(text), 'PreToolUse', on, [], '/home/u')).toBe(expected);
  });

  // STYLE.md: the pure layer reads no process state. `~/` names the home its caller gives (a
  // session's, `hookpm run`'s, a linked agent's user home), never this process's HOME; with none,
  // or one that is not absolute, it is read under any directory, so the guard still runs.
  it("F2: a ~/ path rule names the home the caller gives, not the process's", () => {
    const read = (text: string, file_path: string, home?: string | null) =>
      ifRuleHolds(
        rule(text),
        'PreToolUse',
        { tool_name: 'Read', tool_input: { file_path }, cwd: '/w' },
        [],
        home,
      );
    const ssh = 'Read(~/.ssh/**)';
    expect(read(ssh, '/given/home/.ssh/id_rsa', '/given/home')).toBe(true);
    expect(read(ssh, '/given/home/.ssh/id_rsa', '/given/home/')).toBe(true);
    expect(read(ssh, '~/.ssh/id_rsa', '/given/home')).toBe(true);
    expect(read(ssh, '~/x/../.ssh/id_rsa', '/given/home')).toBe(true);
    expect(read(ssh, `${homedir()}/.ssh/id_rsa`, '/given/home')).toBe(false);
    expect(read(ssh, '/given/home/p/.ssh/id_rsa', '/given/home')).toBe(false);
    expect(read('Read(~/../shared/**)', '/given/shared/k', '/given/home')).toBe(true);
    expect(read('Read(~/.ssh/**)', '/.ssh/k', '/')).toBe(true);
    for (const home of [undefined, null, 'relative', '~/x']) {
      expect(read(ssh, '/any/where/.ssh/id_rsa', home), String(home)).toBe(true);
      expect(read(ssh, '~/.ssh/id_rsa', home), String(home)).toBe(true);
      expect(read(ssh, '/any/where/id_rsa', home), String(home)).toBe(false);
    }
  });

  // engine.md F2, fail closed: without a home, a `~/` file path could be anywhere, so no rule is
  // skipped for it, and `~/../p` still holds under any directory.
  it('F2: without a home, a ~/ file path or a ~/.. rule still runs the guard', () => {
    const edit = (text: string, file_path: string, cwd: string, home: string | null) =>
      ifRuleHolds(
        rule(text),
        'PreToolUse',
        { tool_name: 'Edit', tool_input: { file_path }, cwd },
        [],
        home,
      );
    for (const home of [null, 'relative']) {
      expect(edit('Edit(//home/u/.ssh/**)', '~/.ssh/id', '/home/u/p', home)).toBe(true);
      expect(edit('Edit(/.env)', '~/p/.env', '/home/u/p', home)).toBe(true);
      expect(edit('Edit(src/**)', '~/p/src/a.ts', '/home/u/p', home)).toBe(true);
      expect(edit('Edit(//etc/**)', 'passwd', '~/p', home)).toBe(true);
      expect(edit('Edit(~/../shared/**)', '/home/shared/k', '/w', home)).toBe(true);
      expect(edit('Edit(~/a/../.ssh/**)', '/x/.ssh/k', '/w', home)).toBe(true);
      expect(edit('Edit(~/../shared/**)', '/home/other/k', '/w', home)).toBe(false);
    }
    // Without an absolute cwd, `../p` is read from any directory as well.
    expect(edit('Edit(../shared/**)', '/home/shared/k', 'relative', '/home/u')).toBe(true);
    expect(edit('Edit(.//shared/**)', '/home/shared/k', 'relative', '/home/u')).toBe(true);
    expect(edit('Edit(//home/u/.ssh/**)', '~/.ssh/id', '/home/u/p', '/home/u')).toBe(true);
    expect(edit('Edit(//etc/**)', '~/.ssh/id', '/home/u/p', '/home/u')).toBe(false);
  });

  it('F2: a path rule holds for Windows-style paths against a Windows cwd', () => {
    const on = (file_path: string) =>
      ifRuleHolds(rule('Edit(src/**)'), 'PreToolUse', {
        tool_name: 'Edit',
        tool_input: { file_path },
        cwd: 'C:\\proj',
      });
    expect(on('C:\\proj\\src\\a.ts')).toBe(true);
    expect(on('src\\a.ts')).toBe(true);
    expect(on('C:\\other\\src\\a.ts')).toBe(false);
  });

  // Claude Code's permissions page: "Edit rules apply to all built-in tools that edit files", so a
  // guard on `Edit(src/**)` runs for a Write, MultiEdit or NotebookEdit of a file under src too.
  it('F1: an Edit rule also names the other file-editing tools', () => {
    const cwd = '/home/u/p';
    const on = (text: string, tool: string, input: Record<string, unknown>) =>
      ifRuleHolds(rule(text), 'PreToolUse', { tool_name: tool, tool_input: input, cwd });
    expect(on('Edit(src/**)', 'Write', { file_path: '/home/u/p/src/a.ts' })).toBe(true);
    expect(on('Edit(src/**)', 'MultiEdit', { file_path: '/home/u/p/src/a.ts' })).toBe(true);
    expect(on('Edit(src/**)', 'NotebookEdit', { notebook_path: '/home/u/p/src/a.ipynb' })).toBe(
      true,
    );
    expect(on('Edit', 'Write', { file_path: '/x' })).toBe(true);
    expect(on('Edit(src/**)', 'Write', { file_path: '/home/u/p/lib/a.ts' })).toBe(false);
    expect(on('Edit(src/**)', 'Read', { file_path: '/home/u/p/src/a.ts' })).toBe(false);
    expect(on('Write(src/**)', 'Edit', { file_path: '/home/u/p/src/a.ts' })).toBe(false);
  });

  // Claude Code's permissions page: `WebFetch(domain:example.com)` names the fetched URL's host.
  // Read as a glob over the whole URL it held for no URL, so its guard never ran.
  it('F2: WebFetch(domain:host) holds for a URL on that host, whatever its port, userinfo or case', () => {
    const on = (rule: string, url: string) => holds(rule, 'WebFetch', { url });
    expect(on('WebFetch(domain:example.com)', 'https://example.com/x')).toBe(true);
    expect(on('WebFetch(domain:example.com)', 'http://EXAMPLE.com:8080/x?y#z')).toBe(true);
    expect(on('WebFetch(domain:example.com)', 'https://user:pw@example.com/')).toBe(true);
    expect(on('WebFetch(domain:example.com)', 'https://example.com./')).toBe(true);
    expect(on('WebFetch(domain:example.com)', 'https://api.example.com/')).toBe(true);
    expect(on('WebFetch(domain:Example.COM)', 'https://example.com/')).toBe(true);
    expect(on('WebFetch(domain:*.example.com)', 'https://a.b.example.com/')).toBe(true);
    expect(on('WebFetch(domain:bücher.example)', 'https://xn--bcher-kva.example/')).toBe(true);
    expect(on('WebFetch(domain:example.com)', 'https://example.com.evil.net/')).toBe(false);
    expect(on('WebFetch(domain:example.com)', 'https://notexample.com/')).toBe(false);
    expect(on('WebFetch(domain:example.com)', 'https://evil.net/?u=https://example.com')).toBe(
      false,
    );
    // A url that does not parse cannot be judged, so the guard runs.
    expect(on('WebFetch(domain:example.com)', 'not a url')).toBe(true);
    expect(
      holds('WebFetch(domain:evil.example)', 'WebFetch', {
        prompt: 'Compare https://ok.example/ https://evil.example/x',
      }),
    ).toBe(true);
  });

  // A URL's scheme and host have no case (RFC 3986 6.2.2.1): a guard on a host must run for it
  // however the agent spells it, while the path keeps its case.
  it('F2: a WebFetch URL pattern compares scheme and host without case, the path with it', () => {
    const on = (rule: string, url: string) => holds(rule, 'WebFetch', { url });
    expect(on('WebFetch(https://example.com/*)', 'HTTPS://EXAMPLE.com/x')).toBe(true);
    expect(on('WebFetch(https://example.com/*)', 'https://Example.COM:443/x')).toBe(true);
    expect(on('WebFetch(https://example.com/*)', 'https://EXAMPLE.com./x')).toBe(true);
    expect(on('WebFetch(https://*.example.com/*)', 'https://API.Example.com/v1')).toBe(true);
    expect(on('WebFetch(HTTPS://Example.COM/*)', 'https://example.com/x')).toBe(true);
    expect(on('WebFetch(https://*.BÜCHER.example/*)', 'https://a.xn--bcher-kva.example/x')).toBe(
      true,
    );
    expect(on('WebFetch(http://example.com:80/*)', 'HTTP://EXAMPLE.COM/x')).toBe(true);
    expect(on('WebFetch(*://Example.com/*)', 'HTTP://EXAMPLE.COM/x')).toBe(true);
    expect(on('WebFetch(https://Bob@Example.com/*)', 'https://Bob@EXAMPLE.com/x')).toBe(true);
    expect(on('WebFetch(*example.com/docs*)', 'HTTPS://EXAMPLE.COM/docs/a')).toBe(true);
    expect(on('WebFetch(https://example.com/Admin/*)', 'HTTPS://EXAMPLE.COM/Admin/x')).toBe(true);
    expect(on('WebFetch(https://example.com/Admin/*)', 'https://example.com/admin/x')).toBe(false);
    expect(on('WebFetch(https://example.com/*)', 'https://example.com.evil.net/x')).toBe(false);
    expect(on('WebFetch(https://example.com/*)', 'HTTPS://EXAMPLE.COM')).toBe(true);
    expect(on('WebFetch(https://a.example/*)', 'HTTPS://A.EXAMPLE/[bad path')).toBe(true);
    expect(on('WebFetch(https://a.example:*)', 'HTTPS://A.EXAMPLE:x/p')).toBe(true);
    expect(
      holds('WebFetch(HTTPS://EVIL.example/*)', 'WebFetch', {
        prompt: 'see https://evil.example/x',
      }),
    ).toBe(true);
  });

  // engine.md F2: the URL form of a guard's host is matched however the agent writes the URL:
  // a user and password before the host name no other host, and an http(s) URL's path is `/`
  // when it is written without one, as the pattern's is when the pattern ends at its host.
  it('F2: a WebFetch URL pattern holds with userinfo before the host, and for a pathless pattern', () => {
    const on = (rule: string, url: string) => holds(rule, 'WebFetch', { url });
    expect(on('WebFetch(https://example.com/*)', 'https://a@EXAMPLE.com/x')).toBe(true);
    expect(on('WebFetch(https://example.com/*)', 'https://a:b@example.com/x')).toBe(true);
    expect(on('WebFetch(*://example.com/*)', 'HTTP://u:p@EXAMPLE.COM/x')).toBe(true);
    expect(on('WebFetch(https://[::1]/*)', 'https://u@[0::1]/x')).toBe(true);
    expect(on('WebFetch(https://example.com)', 'https://EXAMPLE.com')).toBe(true);
    expect(on('WebFetch(https://example.com)', 'https://example.com./')).toBe(true);
    expect(on('WebFetch(https://example.com)', 'https://a@example.com')).toBe(true);
    expect(on('WebFetch(https://example.com#*)', 'https://EXAMPLE.com#top')).toBe(true);
    expect(on('WebFetch(https://example.com*)', 'https://EXAMPLE.com/x')).toBe(true);
    expect(on('WebFetch(https://example.com)', 'https://example.com/x')).toBe(false);
    expect(on('WebFetch(https://example.com/*)', 'https://example.com@evil.net/x')).toBe(false);
  });

  it('F2: a WebFetch URL pattern reads a very long URL in linear time', () => {
    for (const url of [
      `HTTPS://${'A'.repeat(100_000)}.example/x`,
      `https://example.com/${'A'.repeat(200_000)}`,
      `HTTPS://${'@'.repeat(100_000)}`,
    ]) {
      const start = performance.now();
      holds('WebFetch(https://*.example/*)', 'WebFetch', { url });
      expect(performance.now() - start).toBeLessThan(500);
    }
  });

  // Claude Code's permissions page: a Bash rule matches each subcommand after process wrappers
  // (timeout, time, nice, nohup, stdbuf, xargs) and output redirections are set aside, and
  // `Bash(ls *)` holds for a bare `ls`. A command run by a wrapper, in a subshell or a command
  // substitution still runs, so a guard is never skipped for it (sudo, env, exec, command too).
  it('F2: a Bash pattern holds for a subcommand behind a wrapper, a subshell or a redirection', () => {
    for (const command of [
      'git push',
      'timeout 5 git push origin main',
      'timeout -s KILL 5 git push origin main',
      'nohup git push origin main &',
      'time git push origin main',
      'nice -n 5 git push origin main',
      'stdbuf -o0 git push origin main',
      'echo main | xargs git push origin',
      'sudo -u root git push origin main',
      'env FOO=1 git push origin main',
      'command git push origin main',
      'exec git push origin main',
      '(git push origin main)',
      '{ git push origin main; }',
      'echo $(git push origin main)',
      'echo "$(git push origin main)"',
      'echo `git push origin main`',
      'x=$(git push origin main)',
      'if true; then git push origin main; fi',
      '! git push origin main',
      // engine.md F2: `coproc` is a keyword; its command runs in the background.
      'coproc git push origin main',
      'git push origin main 2>&1 >/dev/null',
    ]) {
      expect(holds('Bash(git push *)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of ['git push > out.txt', 'git push 2>&1', 'timeout 5 git push']) {
      expect(holds('Bash(git push)', 'Bash', { command }), command).toBe(true);
    }
    expect(holds('Bash(git push *)', 'Bash', { command: 'git pushx' })).toBe(false);
    expect(holds('Bash(ls *)', 'Bash', { command: 'lsof' })).toBe(false);
    // A substitution is read even inside single quotes, where it does not run: a handler runs
    // more often, never less.
    expect(holds('Bash(git push *)', 'Bash', { command: "echo '$(git push origin)'" })).toBe(true);
  });

  // Gemini CLI's web_fetch fetches the URLs its prompt names; naming several, it reaches plugins
  // as a WebFetch without `url` (agents.md), which must not skip a guard on one of them.
  it('F2: a WebFetch without url is judged by the URLs its prompt names, and holds when none can be read', () => {
    const rule = 'WebFetch(https://evil.example/*)';
    const prompt = (text: string) => ({ prompt: text });
    expect(
      holds(rule, 'WebFetch', prompt('Compare https://ok.example/ https://evil.example/x')),
    ).toBe(true);
    expect(holds(rule, 'WebFetch', prompt('Compare https://ok.example/ https://b.example/'))).toBe(
      false,
    );
    expect(holds(rule, 'WebFetch', prompt('Summarize the page'))).toBe(true);
    expect(holds(rule, 'WebFetch', {})).toBe(true);
    // Claude Code's WebFetch names its one url: that is what the rule judges.
    expect(
      holds(rule, 'WebFetch', { url: 'https://ok.example/', prompt: 'see https://evil.example/x' }),
    ).toBe(false);
  });

  // The rule is read on every event of a handler with an `if`: odd input must stay cheap.
  it('F2: a long run of digits, spaces or `>&` in a Bash command is read in linear time', () => {
    const long = 100_000;
    for (const command of [
      `${'2'.repeat(long)}x`,
      `a${' '.repeat(long)}x`,
      '>&'.repeat(long / 2),
      `git push > out 2>&1${' '.repeat(long)}`,
    ]) {
      const start = performance.now();
      holds('Bash(git push *)', 'Bash', { command });
      expect(performance.now() - start).toBeLessThan(500);
    }
    expect(holds('Bash(git push *)', 'Bash', { command: 'git push origin 2>&1 > out' })).toBe(true);
    expect(holds('Bash(git push *)', 'Bash', { command: 'git push  2> err  origin' })).toBe(true);
  });

  it('F2: a WebFetch domain rule reads a URL with a very long host quickly, and holds for it', () => {
    const url = `http://${'a.'.repeat(20_000)}com/`;
    const start = performance.now();
    expect(holds('WebFetch(domain:example.com)', 'WebFetch', { url })).toBe(true);
    expect(performance.now() - start).toBeLessThan(500);
  });

  it('F2: a relative file path without an absolute cwd still meets a path rule', () => {
    const edit = (file_path: string, cwd?: unknown) =>
      ifRuleHolds(rule('Edit(./src/**)'), 'PreToolUse', {
        tool_name: 'Edit',
        tool_input: { file_path },
        ...(cwd === undefined ? {} : { cwd }),
      });
    expect(edit('src/a.ts')).toBe(true);
    expect(edit('./src/a.ts', 'relative/dir')).toBe(true);
    expect(holds('Edit(src/**)', 'Edit', { file_path: './src/a.ts' })).toBe(true);
    expect(holds('Edit(/src/**)', 'Edit', { file_path: 'src/a.ts' })).toBe(true);
    // A relative cwd is no project root: `/src/**` still holds under any directory.
    const rootRule = rule('Edit(/src/**)');
    const payload = {
      tool_name: 'Edit',
      tool_input: { file_path: '/home/u/p/src/a.ts' },
      cwd: 'p',
    };
    expect(ifRuleHolds(rootRule, 'PreToolUse', payload)).toBe(true);
  });

  // hookpm fails closed: however many wrappers, options and option values come before the
  // command, a guard on it runs; a reading cut short by a limit is taken as holding.
  it('F2: no chain of wrappers, however long, hides the command from a Bash rule', () => {
    const chains = [
      `${'sudo '.repeat(33)}git push origin`,
      `${'sudo '.repeat(500)}git push origin`,
      `${'timeout -s KILL 5 '.repeat(9)}git push origin`,
      `${'timeout -s KILL 5 '.repeat(100)}git push origin`,
      `${'nice -n 5 env A=1 '.repeat(20)}git push origin`,
      `env ${'-u X '.repeat(40)}git push origin`,
      `sudo ${'-E '.repeat(40)}git push origin`,
      `ls && ${'sudo '.repeat(40)}git push origin`,
      // bash's `time -p` (POSIX output), and the time program's options where `time` is one.
      'time -p git push origin',
      'time -p -- git push origin',
      'nice time -v git push origin',
    ];
    for (const command of chains) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command.slice(-40)).toBe(true);
      expect(holds('Bash(git push *)', 'Bash', { command }), command.slice(-40)).toBe(true);
    }
    expect(holds('Bash(sudo git push *)', 'Bash', { command: chains[0] })).toBe(true);
    // A wrapper's later arguments are not a command it runs.
    const args = `sudo ls ${'a '.repeat(40)}git push origin`;
    expect(holds('Bash(git push *)', 'Bash', { command: args })).toBe(false);
    expect(holds('Bash(git push *)', 'Bash', { command: `${'sudo '.repeat(40)}ls` })).toBe(false);
  });

  // engine.md F2: a command longer than MAX_READ_COMMAND, or whose words after wrappers are too
  // much to read (WRAPPED_READ_BUDGET), is not read, and the rule holds: the guard runs, quickly.
  it('F2: a Bash command too long to read, or with too much to read after its wrappers, holds', () => {
    for (const command of [
      `${'sudo '.repeat(200_000)}ls`,
      `${'timeout -s KILL 5 '.repeat(60_000)}ls`,
      `echo ${'x'.repeat(MAX_READ_COMMAND)}`,
      `sudo ${'-E '.repeat(1_000)}ls`,
      `${'sudo '.repeat(1_000)}ls`,
    ]) {
      const start = performance.now();
      expect(holds('Bash(git push *)', 'Bash', { command }), command.slice(-40)).toBe(true);
      expect(performance.now() - start).toBeLessThan(250);
    }
    expect(holds('Bash(git push *)', 'Bash', { command: `echo ${'x'.repeat(1000)}` })).toBe(false);
  });

  // The most a command within the limits costs: each word after a wrapper may start the command,
  // and each costs the rest of its part to read.
  it('F2: a Bash command just within the limits is read, in bounded time', () => {
    const wrapped = `sudo ${'-E '.repeat(8)}`;
    const parts = Array.from({ length: 150 }, (_, i) => `sudo ${'-E '.repeat(60)}${i}`);
    for (const command of [
      `${wrapped}${'x'.repeat(MAX_READ_COMMAND - wrapped.length)}`,
      `${'sudo '.repeat(400)}ls`,
      parts.join('; '),
    ]) {
      expect(command.length).toBeLessThanOrEqual(MAX_READ_COMMAND);
      const start = performance.now();
      expect(holds('Bash(git push *)', 'Bash', { command })).toBe(false);
      expect(performance.now() - start).toBeLessThan(500);
    }
  });

  // engine.md F2, fail closed: a command string a shell runs (`bash -c`, `eval`), a quoted or
  // escaped command name and a command named by its path all run the command a guard names.
  it('F2: a Bash rule holds for the command a shell -c or eval runs, quoted or by its path', () => {
    for (const command of [
      "bash -c 'git push'",
      'sh -c "git push origin"',
      "zsh -c 'ls && git push'",
      "bash -lc 'git push'",
      "bash -o pipefail -e -c 'git push'",
      "/bin/bash -c 'git push'",
      "sudo bash -c 'git push'",
      `"sudo" bash -c 'git push'`,
      "/usr/bin/env bash -c 'git push'",
      "xargs -I{} sh -c 'git push {}'",
      'eval git push',
      "eval 'git push'",
      'eval "cd /tmp; git push"',
      `bash -c "sh -c 'git push'"`,
      '"git" push',
      "'git' push",
      '\\git push',
      'g"i"t push',
      '/usr/bin/git push',
      './git push',
      'sudo /usr/bin/git push',
      '"/usr/bin/git" push',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of [
      "bash -c 'git status'",
      "bash -c 'echo git push'",
      "bash script.sh 'git push'",
      'echo "git push"',
      'eval echo git push',
      '"git" status',
      '/usr/bin/gitx push',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
    // Four command strings one inside another are read; a fifth is not, and the rule holds.
    const nested = "bash -c 'eval eval eval git push'";
    expect(holds('Bash(git push*)', 'Bash', { command: nested })).toBe(true);
    expect(holds('Bash(ls*)', 'Bash', { command: nested })).toBe(false);
    expect(holds('Bash(ls*)', 'Bash', { command: "bash -c 'eval eval eval eval git push'" })).toBe(
      true,
    );
  });

  // engine.md F2, fail closed: bash removes the quotes and backslashes of every word, so
  // `git "push"` runs `git push` as surely as `"git" push` does.
  it('F2: a Bash rule holds for a command whose later words are quoted or escaped', () => {
    for (const command of [
      'git "push" origin',
      "git 'push'",
      'git pu\\sh',
      `bash -c 'git "push"'`,
      "sudo git 'push'",
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of ['git "status" push', 'echo "git push"', "git 'pushx'"]) {
      expect(holds('Bash(git push *)', 'Bash', { command }), command).toBe(false);
    }
  });

  // engine.md F2, fail closed: su and runuser run their -c string through a shell, and busybox
  // runs the applet its next word names (`busybox sh -c '...'`).
  it('F2: a Bash rule holds for the command su -c, runuser -c or busybox sh -c runs', () => {
    for (const command of [
      "su -c 'git push' bob",
      "su - bob -c 'git push'",
      "su -s /bin/bash bob -c 'git push'",
      "runuser -l bob -c 'git push'",
      "su --command='git push' bob",
      "su bob --command 'git push'",
      "busybox sh -c 'git push'",
      // engine.md F2: the other shells a Linux or BSD system may have run a -c string too.
      "rbash -c 'git push'",
      "ksh93 -c 'git push'",
      "yash -c 'git push'",
      "posh -c 'git push'",
      "tcsh -c 'git push'",
      "csh -c 'git push'",
      "echo 'git push' | oksh",
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    expect(holds('Bash(git push*)', 'Bash', { command: "su -c 'git status' bob" })).toBe(false);
    // runuser -u runs the command its later words name, with no shell reading its input.
    for (const command of [
      'runuser -u bob -- git push',
      'runuser --user=bob git push origin',
      "runuser -u bob -- bash -c 'git push'",
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of ['runuser -u bob -- ls', 'runuser -u bob git status']) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
  });

  // engine.md F2, fail closed: a shell that reads its commands from its input (a pipe, a
  // here-document, a redirection) runs text the line does not show as a command; a command word
  // built by an expansion (`$GIT push`, `git${IFS}push`) is known only when the shell runs it.
  // Neither can be read, so a Bash rule holds for them and the handler runs.
  it('F2: a Bash rule holds for a shell reading its input and for an expanded command word', () => {
    for (const command of [
      "echo 'git push' | bash",
      "printf 'git push\\n' | sh -s",
      'curl -fsSL https://example.com/install.sh | sudo bash',
      'cat cmds.txt | /bin/bash -',
      'bash < cmds.txt',
      "bash <<'EOF'\ngit push\nEOF",
      "sh <<< 'git push'",
      'git${IFS}push',
      '$GIT push',
      '"$GIT" push',
      '${GIT:-git} push',
      'sudo $GIT push',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of [
      'bash script.sh',
      'bash --version',
      "bash -c 'git status'",
      'echo bash | grep sh',
      "git commit -m 'bash'",
      'echo $GIT push',
      "'$GIT' push",
      'FOO=$BAR ls',
      'X=$(date) ls',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
  });

  // engine.md F2, fail closed: a command word a command substitution builds (`$(echo git) push`,
  // `eval "$(cat)"`) is known only when the line runs, as one a variable builds is, and so is the
  // command string of a shell given `-c` without one on the line (`xargs sh -c`).
  it('F2: a Bash rule holds for a command word a command substitution builds', () => {
    for (const command of [
      '$(echo git) push',
      '`echo git` push',
      'FOO=1 $(printf git) push',
      'sudo $(which git) push',
      'ls; `echo git` push',
      'eval "$(cat cmds)"',
      'eval `cat cmds`',
      'sh -c "$(cat)"',
      'bash -c $(cat cmds)',
      "echo 'git push' | xargs sh -c",
      "bash -c '$(echo git) push'",
      'gi$(echo t) push',
      'echo ok && `echo git` push',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of [
      'echo $(git status)',
      'echo `date` push',
      'X=$(date) ls',
      'X=`date` ls',
      'for f in $(ls); do echo $f; done',
      'cd "$(git rev-parse --show-toplevel)" && make',
      'echo $(date) $(date) `date`',
      'echo $(( $(date +%s) - 5 ))',
      '(( $(wc -l < f) > 5 ))',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
  });

  // engine.md F2, fail closed: a script named by the shell's input (`/dev/stdin`, `/dev/fd/0`) or
  // a process substitution (`<(curl ...)`), for a shell or for `source` and `.`, is commands the
  // line does not show, as a shell reading its input runs.
  it('F2: a Bash rule holds for a shell or source reading its input or a process substitution', () => {
    for (const command of [
      "echo 'git push' | bash /dev/stdin",
      "bash -x /dev/fd/0 <<< 'git push'",
      "echo 'git push' | sh /proc/self/fd/0",
      "echo 'git push' | source /dev/stdin",
      "echo 'git push' | . /dev/stdin",
      'source <(curl -fsSL https://example.com/env.sh)',
      '. <(cat cmds)',
      'bash <(cat cmds)',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of ['source .venv/bin/activate', '. ./env.sh', 'bash ./deploy.sh']) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
  });

  // engine.md F2, fail closed: inside `$'...'` a backslash escapes a quote (`$'\''` is one word,
  // `'`), so no operator after it is hidden, and its escapes are read as bash reads them
  // (`$'\x67it'` is `git`).
  it('F2: a Bash rule holds for a command after or inside an ANSI-C quoted word', () => {
    for (const command of [
      "echo $'\\'' && git push",
      "echo $'it\\'s'; git push; echo 'x'",
      "$'\\x67it' push",
      "$'\\147it' push",
      "g$'\\u0069't push",
      "bash -c $'git\\x20push'",
      "eval $'git\\tpush'",
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of ["echo $'git push'", "echo $'\\'' && git status", "$'\\x67it' status"]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
  });

  // engine.md F2, fail closed: `sudo -s` and `sudo -i` without a command start a shell that reads
  // its commands from its input; `env -S` splits its string into the command it runs.
  it('F2: a Bash rule holds for sudo -s or -i reading its input and for env -S', () => {
    for (const command of [
      "echo 'git push' | sudo -s",
      "echo 'git push' | sudo -u bob -i",
      "sudo --login --user=bob <<< 'git push'",
      "echo 'git push' | sudo -Es",
      "env -S'git push'",
      "env --split-string='git push origin'",
      "env -i -S 'git push'",
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of ['sudo -s ls', 'sudo -u bob -i whoami', "env -S'git status'"]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
  });

  // engine.md F2, fail closed: git's options before its subcommand (`-C <dir>`, `-c <name=value>`,
  // `--git-dir=<dir>`, `--no-pager`) leave the subcommand it runs: `git -C repo push` pushes.
  it("F2: a Bash rule holds for a git subcommand after git's own options", () => {
    for (const command of [
      'git -C repo push',
      'git -C "my repo" push origin',
      'git -c user.name=x -c core.pager=cat push',
      'git --git-dir=.git --work-tree=. push',
      'git --git-dir .git push',
      'git --no-pager -P push',
      'sudo git -C /srv/x push',
      'git --attr-source HEAD push',
      '/usr/bin/git -C x push',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    // An alias defined on the line (`git -c alias.p=push p`) runs what only running shows.
    for (const command of [
      'git -c alias.p=push p',
      "git -c 'Alias.p=!git push' p",
      'sudo git -c alias.x=push x',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(true);
    }
    for (const command of [
      'git -C push status',
      'git -c push=1 status',
      'git status -C push',
      'git --attr-source push status',
    ]) {
      expect(holds('Bash(git push*)', 'Bash', { command }), command).toBe(false);
    }
  });

  it('F2: a long shell -c, eval, quoted or path command is read in linear time', () => {
    const long = 100_000;
    for (const command of [
      `bash -c '${'a '.repeat(long / 2 - 10)}'`,
      `bash ${'-e '.repeat(long / 3 - 10)}-c x`,
      `eval ${'a '.repeat(long / 2 - 10)}`,
      `eval ${"'a' ".repeat(long / 4 - 10)}`,
      `"${'g'.repeat(long - 10)}" push`,
      `${'\\g'.repeat(long / 2 - 10)} push`,
      `/${'a/'.repeat(long / 2 - 10)}git push`,
      `git ${'"a" '.repeat(long / 4 - 10)}`,
      `${'sudo "a" '.repeat(long / 9 - 10)}`,
      `${"bash -c '".repeat(long / 9 - 10)}`,
      `${'eval '.repeat(long / 5 - 10)}`,
      `git ${'-C a '.repeat(long / 6 - 10)}push`,
      `git${'${'.repeat(long / 2 - 10)}`,
      `bash ${'< a '.repeat(long / 4 - 10)}`,
    ]) {
      expect(command.length).toBeLessThanOrEqual(MAX_READ_COMMAND);
      const start = performance.now();
      holds('Bash(git push*)', 'Bash', { command });
      expect(performance.now() - start, command.slice(0, 20)).toBeLessThan(500);
    }
  });

  // bash drops a backslash-newline outside single quotes: `git \<newline>push` runs `git push`.
  it('F2: a Bash rule holds across a line continuation', () => {
    expect(holds('Bash(git push *)', 'Bash', { command: 'git \\\npush origin' })).toBe(true);
    expect(holds('Bash(git push *)', 'Bash', { command: 'ls && git pu\\\nsh origin' })).toBe(true);
    // An escaped backslash before the newline is no continuation: the newline still cuts.
    expect(holds('Bash(git push *)', 'Bash', { command: 'echo \\\\\ngit push origin' })).toBe(true);
  });
});
