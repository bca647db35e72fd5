/** What every store means by a namespace scope, and the errors of a write every store refuses alike. */
import { MnemoliteError, invalid } from '../errors.js';
import { ALL_NAMESPACES } from '../validate.js';

/** Whether `row` is visible in namespace scope `ns` (undefined or `*` = any). */
export function inScope(row: { namespace: string }, ns: string | undefined): boolean {
  return ns === undefined || ns === ALL_NAMESPACES || row.namespace === ns;
}

/** The NOT_FOUND error of an unknown id. */
export function notFound(id: string): MnemoliteError {
  return new MnemoliteError('NOT_FOUND', `No memory with id ${id}. List ids with mnemolite list.`, { id });
}

/** The INVALID_INPUT error of an update to a key another memory of the namespace holds. */
export function keyTaken(key: string, otherId: string, namespace: string): MnemoliteError {
  return invalid(`The key "${key}" is already used by memory ${otherId} in namespace "${namespace}". Choose another key or forget that memory first.`);
}
