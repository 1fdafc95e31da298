// The scenario kinds by name: studies/scenarios/*.js name one as `kind`.
import * as batch from './batch.js';
import * as phases from './phases.js';
import * as serial from './serial.js';
import * as sweep from './sweep.js';

export const KINDS = Object.freeze({ batch, phases, serial, sweep });
