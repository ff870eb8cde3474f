/** What a render produces and the writer (src/pipeline) puts on disk: pure data, no file system. */
export interface TreeFile {
  /** Path relative to the tree root, `/`-separated, inside a top-level directory (`providers/cluster-api/components.yaml`). */
  path: string;
  content: string;
}

export interface TreeChanges {
  added: string[];
  changed: string[];
  removed: string[];
}
