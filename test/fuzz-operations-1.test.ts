/** The operation fuzz, part 1 of 4 (`test/fuzz/operations.ts`). */
import { fuzzOperations } from './fuzz/operations.ts';

fuzzOperations(0, 4);
