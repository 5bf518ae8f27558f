/**
 * Strongly connected components of a directed graph on nodes 0..n-1 (Tarjan's algorithm, written
 * iteratively so deep graphs cannot overflow the stack). Returns each node's component id.
 */
export function stronglyConnected(
  n: number,
  successors: readonly (readonly number[])[],
): Int32Array {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  let nextIndex = 0;
  let nextComponent = 0;
  for (let root = 0; root < n; root += 1) {
    if (index[root] !== -1) continue;
    const work: Array<[number, number]> = [[root, 0]];
    while (work.length > 0) {
      const frame = work[work.length - 1] as [number, number];
      const [v, i] = frame;
      if (i === 0) {
        index[v] = low[v] = nextIndex++;
        stack.push(v);
        onStack[v] = 1;
      }
      const next = successors[v] ?? [];
      if (i < next.length) {
        frame[1] = i + 1;
        const w = next[i] as number;
        if (index[w] === -1) work.push([w, 0]);
        else if (onStack[w] === 1) low[v] = Math.min(low[v] as number, index[w] as number);
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low[parent[0]] = Math.min(low[parent[0]] as number, low[v] as number);
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          component[w] = nextComponent;
        } while (w !== v);
        nextComponent += 1;
      }
    }
  }
  return component;
}
