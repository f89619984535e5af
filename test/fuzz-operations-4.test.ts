/** The operation fuzz, part 4 of 4 (`test/fuzz/operations.ts`). */
import { fuzzOperations } from './fuzz/operations.ts';

fuzzOperations(3, 4);
