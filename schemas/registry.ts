/** Every endpoint schema in one list, derived from the named exports so that no list is kept twice. */
import type { EndpointSchema } from '../src/http/validation.js';
import * as schemas from './index.js';

export const SCHEMAS: readonly EndpointSchema[] = Object.values(schemas);
