/** Whether a `--db` / `path` value names a PostgreSQL database rather than a file. */
export function isPostgresUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}

/** The URL without its password, for messages, logs and `Memory.path`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:\/\/([^:/@]*):[^@]*@/, '://$1:***@');
  }
}
