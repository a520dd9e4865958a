/**
 * The API's own constants (ARCHITECTURE.md, API conventions), apart from the route table and the
 * envelope that both read them. No import: the schema-free entry (`@proxy/contract/light`) carries it.
 */

/** The API mount point. */
export const API_PREFIX = '/api';

/** Body code of every successful answer (spec section 7: success only when code equals 0). */
export const OK_CODE = 0;
