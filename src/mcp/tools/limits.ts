// The longest value each kind of string input may be, in the tools' schemas: the SDK refuses a longer
// one before the tool runs, so nothing is sent for it (an id of megabytes would reach the API as a 431) and no
// error echoes it. Each is far above any real value of its kind.
import { MAX_FIELD_CHARS } from '../result.js';

/** Job, status and automation ids: the API's are tens of characters. */
export const ID_CHARS = 200;
/** A `next` cursor: as long as a result may show one whole, so any cursor shown can be passed back. */
export const CURSOR_CHARS = MAX_FIELD_CHARS;
/** YYYY-MM-DD or ISO 8601 with fractions and an offset. */
export const DATE_CHARS = 40;
/** A comma-separated list of review states. */
export const STATUS_CHARS = 200;
/** git's own limit on a ref name's length is the file system's: 255 for one part. */
export const BRANCH_CHARS = 255;
/** A DNS name (a URL given for one is cut down to its host). */
export const DOMAIN_CHARS = 2048;
/** A relative path under --root. */
export const DIRECTORY_CHARS = 1024;
