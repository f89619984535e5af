/** The demo's users (the seller's sales team, the first one its admin) and their teams. */
import type { DemoContext } from './context.ts';
import { DAY, HOUR, iso } from './random.ts';
import * as words from './words.ts';

export function generateUsersAndTeams(ctx: DemoContext): void {
  const { r, out } = ctx;
  const userCount = r.int(6, 10);
  const t0 = ctx.start - 90 * DAY;
  out.users = words.USER_NAMES.slice(0, userCount).map(([name, local], i) => {
    const ms = t0 + i * 7 * DAY + r.int(0, 8 * HOUR);
    return {
      id: ctx.ids.next(ms),
      name,
      email: `${local}@${words.SELLER.domain}`,
      role: i === 0 ? ('admin' as const) : ('member' as const),
      createdAt: iso(ms),
    };
  });
  ctx.userIds = out.users.map((u) => u.id!);
  for (const u of out.users) {
    ctx.userNames.set(u.id!, u.name);
    ctx.userEmails.set(u.id!, u.email);
  }
  out.adminUserId = ctx.userIds[0]!;
  const teamCount = r.int(2, 3);
  const members: string[][] = Array.from({ length: teamCount }, () => []);
  members[0]!.push(ctx.userIds[0]!);
  for (let i = 1; i < ctx.userIds.length; i++) members[(i - 1) % teamCount]!.push(ctx.userIds[i]!);
  out.teams = words.TEAM_NAMES.slice(0, teamCount).map(([name, description], i) => ({
    id: ctx.ids.next(t0 + i * HOUR),
    name,
    description,
    memberIds: members[i]!,
  }));
}
