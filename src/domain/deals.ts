/** Deal outcomes (DECISIONS 5). */
export const DEAL_OUTCOMES = ['In progress', 'Won', 'Lost'] as const;
export type DealOutcome = (typeof DEAL_OUTCOMES)[number];
