/**
 * Holds the write lock of a file (a plain SQLite connection in BEGIN IMMEDIATE) until the
 * parent writes "release" on stdin. Usage: locker.ts --db PATH
 */
import Database from 'better-sqlite3';
import { args, emit } from './common.js';

const db = new Database(args().db!);
db.exec('BEGIN IMMEDIATE');
emit({ op: 'locked' });
process.stdin.on('data', (d) => {
  if (String(d).includes('release')) {
    db.exec('COMMIT');
    db.close();
    emit({ op: 'released' });
    process.exit(0);
  }
});
