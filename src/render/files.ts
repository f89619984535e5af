/** A file row with its owner's name, as the file queries read it. */
export interface FileListRow {
  id: string;
  name: string;
  created_at: string;
  owner_id: string | null;
  owner_name: string | null;
}

/**
 * A file of `GET /v2/file`: `{id, name, createdAt, owner}` (docs/decisions.md, Other resources).
 */
export function renderFileListItem(row: FileListRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    owner: row.owner_id === null ? null : { id: row.owner_id, name: row.owner_name ?? null },
  };
}

/**
 * The `Content-Disposition` of a download: the name as ASCII (others as `_`) for old
 * clients, and in full as UTF-8 (RFC 5987 / 6266 `filename*`), which Korean names need.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
