import { MnemoliteError } from '../errors.js';
import { ALL_NAMESPACES } from '../validate.js';

/** Whether `row` is visible in namespace scope `ns` (undefined or `*` = any). */
export function inScope(row: { namespace: string }, ns: string | undefined): boolean {
  return ns === undefined || ns === ALL_NAMESPACES || row.namespace === ns;
}

/** The NOT_FOUND error of an unknown id. */
export function notFound(id: string): MnemoliteError {
  return new MnemoliteError('NOT_FOUND', `No memory with id ${id}. List ids with mnemolite list.`, { id });
}
