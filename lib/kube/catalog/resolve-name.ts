/**
 * What a user typed for a resource type, resolved as kubectl resolves it: the plural, singular, a
 * short name or the kind (any case), optionally qualified with `.group` or `.version.group`
 * (`jobs.batch.volcano.sh`, `deployments.v1.apps`). The first match in `items` wins, so callers put
 * the kinds that should win a tie first (the core group, built-in kinds).
 */
export interface ResourceNames {
  plural: string;
  singular: string;
  shortNames: readonly string[];
  kind: string;
  group: string;
  version: string;
}

export function resolveResourceName<T>(
  items: readonly T[],
  text: string,
  names: (item: T) => ResourceNames,
): T | undefined {
  const lower = text.toLowerCase();
  const matches = (item: T, name: string) => {
    const n = names(item);
    return n.plural === name || n.singular === name || n.shortNames.includes(name) || n.kind.toLowerCase() === name;
  };
  const direct = items.find((item) => matches(item, lower));
  if (direct) return direct;
  for (let i = lower.indexOf('.'); i > 0; i = lower.indexOf('.', i + 1)) {
    const name = lower.slice(0, i);
    const rest = lower.slice(i + 1);
    const hit = items.find((item) => {
      const n = names(item);
      return matches(item, name) && (n.group === rest || `${n.version}.${n.group}` === rest);
    });
    if (hit) return hit;
  }
  return undefined;
}
