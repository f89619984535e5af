/** The operation fuzz, part 3 of 4 (`test/fuzz/operations.ts`). */
import { fuzzOperations } from './fuzz/operations.ts';

fuzzOperations(2, 4);
