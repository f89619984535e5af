/** Deal outcomes (docs/decisions.md, Derived fields). */
export const DEAL_OUTCOMES = ['In progress', 'Won', 'Lost'] as const;
export type DealOutcome = (typeof DEAL_OUTCOMES)[number];
