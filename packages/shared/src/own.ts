/**
 * Lookups in allow-lists built on plain objects. `key in obj` and `obj[key]` also find what every object inherits
 * (`constructor`, `__proto__`, `toString`), so a request naming such a field would get a function where a column,
 * a label or a limit was expected. Wherever input names the key, look it up with these.
 */
export function hasOwnKey<T extends object>(obj: T, key: PropertyKey): key is keyof T {
  return Object.hasOwn(obj, key);
}

/** The value under `key` when `obj` itself has it; undefined for inherited names. */
export function ownValue<T extends object>(obj: T, key: PropertyKey): T[keyof T] | undefined {
  return Object.hasOwn(obj, key) ? obj[key as keyof T] : undefined;
}
