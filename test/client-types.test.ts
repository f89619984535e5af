import { describe, expectTypeOf, it } from 'vitest';
import {
  type AuthenticationError,
  ConnectionError,
  CrmApiError,
  CrmClient,
  type Deal,
  type DealDetail,
  type ListRequest,
  type NotFoundError,
  type Page,
  type Person,
  type Quote,
  RateLimitError,
  type Ref,
  type ValidationError,
} from '../src/client/index.ts';

// Type tests: checked by `tsc --noEmit` (this file is in the project), and run by vitest as
// a plain test whose body never calls the network (the client is only constructed).

type Fields = {
  people: { '고객 등급': 'VIP' | '일반' | null; '관심 제품': Array<'CRM' | '분석'> | null };
  deal: { 추천인: Ref | null };
  quoteProduct: { 할인율: number | null };
};

const crm = new CrmClient({ baseUrl: 'http://127.0.0.1:1', token: 't' });
const typed = new CrmClient<Fields>({ baseUrl: 'http://127.0.0.1:1', token: 't' });

describe('client types', () => {
  it('records have their exact Korean keys', () => {
    expectTypeOf(crm.people.get).returns.resolves.toEqualTypeOf<Person>();
    expectTypeOf<Person['이름']>().toEqualTypeOf<string>();
    expectTypeOf<Person['진행중 딜 개수']>().toEqualTypeOf<number>();
    expectTypeOf<Person['담당자']>().toEqualTypeOf<Ref | null>();
    expectTypeOf<Person['팀']>().toEqualTypeOf<Ref[]>();
    expectTypeOf<Deal['마감일']>().toEqualTypeOf<string | null>();
    expectTypeOf<Deal['파이프라인']>().toEqualTypeOf<Ref | null>();
    expectTypeOf<DealDetail['상담 일수']>().toEqualTypeOf<number>();
    expectTypeOf<DealDetail>().toMatchTypeOf<Deal>();
    expectTypeOf<Quote['견적 구성 상품'][number]['전체금액']>().toEqualTypeOf<number>();
    expectTypeOf(crm.deals.get).returns.resolves.toEqualTypeOf<DealDetail>();
    expectTypeOf(crm.deals.list).returns.toEqualTypeOf<ListRequest<Deal>>();
    expectTypeOf(crm.people.list().page).returns.resolves.toEqualTypeOf<Page<Person>>();
  });

  it('a misspelled key is a type error', () => {
    const person = {} as Person;
    // @ts-expect-error: '이룸' is not a key of a person ('이름' is)
    void person['이룸'];
    // @ts-expect-error: no custom fields were declared, so none is a key
    void person['고객 등급'];
    // @ts-expect-error: the deal list record has no '상담 일수' (the single deal has)
    void ({} as Deal)['상담 일수'];
  });

  it('custom fields come from the generic parameter, per record type', async () => {
    type P = Awaited<ReturnType<typeof typed.people.get>>;
    expectTypeOf<P['고객 등급']>().toEqualTypeOf<'VIP' | '일반' | null>();
    expectTypeOf<P['관심 제품']>().toEqualTypeOf<Array<'CRM' | '분석'> | null>();
    expectTypeOf<P['이름']>().toEqualTypeOf<string>();
    type D = Awaited<ReturnType<typeof typed.deals.get>>;
    expectTypeOf<D['추천인']>().toEqualTypeOf<Ref | null>();
    type ListedDeal = typeof typed.deals.list extends (...a: never[]) => ListRequest<infer T>
      ? T
      : never;
    expectTypeOf<ListedDeal['추천인']>().toEqualTypeOf<Ref | null>();
    type Q = Awaited<ReturnType<typeof typed.deals.quotes>>[number];
    expectTypeOf<Q['견적 구성 상품'][number]['할인율']>().toEqualTypeOf<number | null>();
    const p = {} as P;
    // @ts-expect-error: a people custom field is not on organizations
    void ({} as Awaited<ReturnType<typeof typed.organizations.get>>)['고객 등급'];
    // @ts-expect-error: not an option of '고객 등급'
    const grade: P['고객 등급'] = '골드';
    void grade;
    void p;
  });

  it('errors narrow by class', () => {
    const handle = (error: unknown): string => {
      if (error instanceof RateLimitError) {
        expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
        return 'later';
      }
      if (error instanceof ConnectionError) {
        expectTypeOf(error.timedOut).toEqualTypeOf<boolean>();
        return 'offline';
      }
      if (error instanceof CrmApiError) {
        expectTypeOf(error.status).toEqualTypeOf<number>();
        expectTypeOf(error.requestId).toEqualTypeOf<string | undefined>();
        expectTypeOf(error.body).toEqualTypeOf<unknown>();
        // @ts-expect-error: only a RateLimitError (or ServerError) has retryAfter
        void error.retryAfter;
        return 'failed';
      }
      return 'unknown';
    };
    void handle;
    expectTypeOf<NotFoundError>().toMatchTypeOf<CrmApiError>();
    expectTypeOf<ValidationError>().toMatchTypeOf<CrmApiError>();
    expectTypeOf<AuthenticationError>().toMatchTypeOf<CrmApiError>();
  });

  it('write bodies are typed from the route schemas', () => {
    expectTypeOf(crm.deals.create).parameter(0).toHaveProperty('status');
    type Status = Parameters<typeof crm.deals.create>[0]['status'];
    expectTypeOf<Status>().toEqualTypeOf<'Won' | 'Lost' | 'In progress'>();
    // @ts-expect-error: a person needs a name
    void (() => crm.people.create({ organizationId: 'x' }));
    // @ts-expect-error: activity types are a closed list
    void (() => crm.deals.activities.list({ types: ['emial'] }));
  });
});

describe('client body types', () => {
  it('fieldList items take the typed value keys', () => {
    void (() =>
      crm.people.create({
        name: '홍길동',
        fieldList: [
          { name: '이메일', stringValue: 'a@example.com' },
          { name: '담당자', userValueId: 'u1' },
          { name: '관심 제품', stringValueList: ['CRM'] },
        ],
      }));
    const misspelled = () =>
      crm.people.create({
        name: '홍길동',
        // @ts-expect-error: 'stringValu' is not a value key
        fieldList: [{ name: '이메일', stringValu: 'x' }],
      });
    void misspelled;
  });
});
