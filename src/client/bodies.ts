/**
 * Bodies of the write calls, typed from the routes' own TypeBox schemas (type-only). The
 * schemas let `fieldList` items carry any key (the server checks them against the
 * workspace's fields); here they get the value keys (docs/decisions.md, Custom fields), so a typo
 * in a key is caught by the compiler.
 */
import type * as EmailBodies from '../api-schema/bodies/emails.ts';
import type * as Search from '../api-schema/bodies/search.ts';
import type * as Bodies from '../api-schema/write-bodies.ts';
import type { RefTarget } from '../domain/custom-fields.ts';

/** One `fieldList` item: a field by its Korean name and its value under a typed key. */
export type FieldListEntry = {
  name: string;
  stringValue?: string | null;
  numberValue?: number | null;
  booleanValue?: boolean | null;
  /** A day `YYYY-MM-DD` or an ISO 8601 time. */
  dateValue?: string | null;
  stringValueList?: string[] | null;
  /** Ids of files of the workspace (`POST /v2/file`), for a `multiAttachment` field. */
  fileValueIdList?: string[] | null;
} & { [K in `${RefTarget}ValueId`]?: string | null } & {
  [K in `${RefTarget}ValueIdList`]?: string[] | null;
};

/** A body with its `fieldList` typed. */
type WithFieldList<B> = Omit<B, 'fieldList'> & { fieldList?: FieldListEntry[] };

/** Body of `people.create`. */
export type CreatePersonBody = WithFieldList<Bodies.CreatePersonBody>;
/** Body of `people.update`. */
export type UpdatePersonBody = WithFieldList<Bodies.UpdatePersonBody>;
/** Body of `organizations.create`. */
export type CreateOrganizationBody = WithFieldList<Bodies.CreateOrganizationBody>;
/** Body of `organizations.update`. */
export type UpdateOrganizationBody = WithFieldList<Bodies.UpdateOrganizationBody>;
/** Body of `customObjects.create`: the definition by id or name, `이름` as `name` or in `fieldList`. */
export type CreateCustomObjectBody = WithFieldList<Bodies.CreateCustomObjectBody>;
/** Body of `customObjects.update`. */
export type UpdateCustomObjectBody = WithFieldList<Bodies.UpdateCustomObjectBody>;
/** Body of `deals.create`. */
export type CreateDealBody = WithFieldList<Bodies.CreateDealBody>;
/** Body of `deals.update`. */
export type UpdateDealBody = WithFieldList<Bodies.UpdateDealBody>;
/** Body of `leads.create`. */
export type CreateLeadBody = WithFieldList<Bodies.CreateLeadBody>;
/** Body of `leads.update`. */
export type UpdateLeadBody = WithFieldList<Bodies.UpdateLeadBody>;
/** Body of `products.create`. */
export type CreateProductBody = WithFieldList<Bodies.CreateProductBody>;
/** Body of `products.update`. */
export type UpdateProductBody = WithFieldList<Bodies.UpdateProductBody>;
/** Body of `todos.create`: exactly one of `dealId`, `leadId`, `peopleId`, `organizationId`. */
export type CreateTodoBody = Omit<Bodies.CreateTodoBody, 'fieldList'> & {
  fieldList: FieldListEntry[];
};
/** Body of `todos.update`: the fields to change (`완료` completes the todo). */
export type UpdateTodoBody = { fieldList: FieldListEntry[] };
/**
 * Body of the `addMemo` calls: the note's `text` (or `memo`, or only `htmlBody`), and
 * optionally its HTML, its type's `_id` and the note it answers (`parentId`).
 */
export type AddMemoBody = Bodies.AddMemoBody;
/** One line of `quotes.create` (`amount` is the quantity). */
export type QuoteLineBody = WithFieldList<Bodies.QuoteLineBody>;
/** Body of `quotes.create`: exactly one of `dealId` and `leadId`. */
export type CreateQuoteBody = Omit<WithFieldList<Bodies.CreateQuoteBody>, 'quoteProductList'> & {
  quoteProductList?: QuoteLineBody[];
};
/** Body of `fields.create`: `name`, `type`, and the field's settings. */
export type CreateFieldBody = Bodies.CreateFieldBody;
/** Body of `fields.update`: a new `name`, `description`, or `options` to add. */
export type UpdateFieldBody = Bodies.UpdateFieldBody;
/** Body of `webhooks.create`: `url`, `objectTypeList`, and optionally `eventList`, `fieldList`. */
export type CreateWebhookBody = Bodies.CreateWebhookBody;
/** Body of `webhooks.update`: what changes (a new `url` is verified again). */
export type UpdateWebhookBody = Bodies.UpdateWebhookBody;

/** One filter of a search: a field by its Korean name, an operator, and its value. */
export type SearchFilter = Search.SearchFilter;
/** The operators of a search filter (`EQ`, `CONTAINS`, `DATE_BETWEEN`, …). */
export type SearchOperator = Search.SearchOperator;
/** What `people.search` (and the other searches) take: the search body but `limit`. */
export type SearchRequest = Omit<Search.SearchBody, 'limit'>;

/** Body of `email.send`. */
export type SendEmailBody = EmailBodies.SendEmailBody;
/** Body of `recordings.create`: the audio's file id, the record, the transcript. */
export type CreateRecordingBody = Bodies.CreateRecordingBody;
