// How a list export ends badly on its own side, as data: the file it wrote to could take no more.
import { MintAdminError } from '../errors.js';

/** The file a list was written to could take no more (a full disk, a quota, an I/O error); what it holds ends with a whole row. */
export class ListOutputError extends MintAdminError {
  constructor(
    message: string,
    /** The file being written. */
    readonly output: string,
    /** How many items it holds. */
    readonly items: number,
    /** What went wrong, in a few words ("disk full"). */
    readonly problem: string,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}
