/**
 * @module
 * The YAML package, imported by the first reader that meets YAML: a script's or JSON's run never pays it.
 */
type YamlPackage = typeof import("yaml");

let loaded: YamlPackage | undefined;

/** The YAML package, imported on the first call. */
export async function yamlPackage(): Promise<YamlPackage> {
  return loaded ??= await import("yaml");
}

/** The YAML package when a reader in this process has imported it, else undefined. */
export function loadedYamlPackage(): YamlPackage | undefined {
  return loaded;
}
