/**
 * `record[key]` when `key` is one of the record's own properties, else undefined. Every key that a
 * user or a registry supplies (a plugin name or id, a version, a dist-tag) is looked up through it,
 * so `constructor`, `toString` or `hasOwnProperty` never find a property of Object.prototype.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
