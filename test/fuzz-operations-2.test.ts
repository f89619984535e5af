/** The operation fuzz, part 2 of 4 (`test/fuzz/operations.ts`). */
import { fuzzOperations } from './fuzz/operations.ts';

fuzzOperations(1, 4);
