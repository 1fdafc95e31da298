import * as memory from '../../stores/memory.js';
import { storeConformance } from '../helpers/store-conformance.js';

storeConformance(memory, async () => ({}));
