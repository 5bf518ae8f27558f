let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const command = JSON.parse(input).tool_input?.command ?? '';
  if (!command.includes('rm -rf')) return;
  const reason = 'api-guard: rm -rf is refused';
  const hookSpecificOutput = {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: reason,
  };
  process.stdout.write(JSON.stringify({ hookSpecificOutput }));
});
