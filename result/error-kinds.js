// The error kind a step counts a WRITE_CONFLICT answer under: reports name it a conflict (the
// store answered; another writer of the key got in between), never an outage.
import { ERROR_CODES } from '../util/errors.js';

export const CONFLICT_KIND = `http ${ERROR_CODES.WRITE_CONFLICT.status}`;
