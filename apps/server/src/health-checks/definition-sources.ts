// Where check definitions come from: modules named by URL, imported once per thread, so that the
// checks process (checks.worker.ts) runs the very definitions the registry lists.
import type { CheckDefinition } from './catalogue/types.js';

/** A module exporting a list of check definitions under `exportName`. */
export interface DefinitionSource {
  url: string;
  exportName: string;
}

/** A module beside this one, as a URL the main thread and the checks process can import. */
export function siblingModule(callerUrl: string, path: string): string {
  const ext = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`${path}${ext}`, callerUrl).href;
}

/** The product's catalogue (catalogue/index.ts). */
export const CATALOGUE_SOURCE: DefinitionSource = {
  url: siblingModule(import.meta.url, './catalogue/index'),
  exportName: 'CHECK_DEFINITIONS',
};

const imported = new Map<string, Promise<CheckDefinition[]>>();

/** The definitions of the sources, in order, each module imported once per thread. */
export async function importDefinitions(
  sources: readonly DefinitionSource[],
): Promise<CheckDefinition[]> {
  const lists = await Promise.all(
    sources.map((source) => {
      const key = `${source.url}#${source.exportName}`;
      let list = imported.get(key);
      if (!list) {
        list = import(source.url).then((module: Record<string, unknown>) => {
          const value = module[source.exportName];
          if (!Array.isArray(value))
            throw new Error(`${source.url} exports no check list '${source.exportName}'.`);
          return value as CheckDefinition[];
        });
        list.catch(() => imported.delete(key));
        imported.set(key, list);
      }
      return list;
    }),
  );
  return lists.flat();
}
