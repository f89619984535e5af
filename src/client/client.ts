import type * as Batch from './batch.ts';
import type * as Bodies from './bodies.ts';
import { EventFeed, type EventFeedOptions } from './event-feed.ts';
import { ListRequest } from './list.ts';
import type * as R from './records.ts';
import type { CustomFieldTypes, NoCustomFields } from './records.ts';
import {
  type CallOptions,
  type Download,
  type QueryValues,
  Transport,
  type TransportOptions,
} from './transport.ts';

/** Options of `new CrmClient(...)`. */
export interface CrmClientOptions extends TransportOptions {
  /** Where the API is served, e.g. `http://127.0.0.1:3000` (with `BASE_PATH` if any). */
  baseUrl: string;
  /** An API token of the workspace (`salescrm token create`). */
  token: string;
  /** Per attempt, in ms (default 30 000); a call that takes longer is a `ConnectionError`. */
  timeoutMs?: number;
  /** Retries of a failed call that is safe to repeat (default 2). */
  maxRetries?: number;
}

/** Options of a list: its page size and per-call options. */
export interface ListOptions extends CallOptions {
  /** Records per page (the server's default is 50, at most 100). */
  limit?: number;
}

/** A day (`YYYY-MM-DD`, a whole day in Korea time) or a time (a Date, or ISO 8601 with offset). */
export type DateFilter = string | Date;

/** Filters of the activity lists. */
export interface ActivityFilter extends ListOptions {
  /** Only these kinds of activity. */
  types?: readonly R.ActivityType[];
  startDate?: DateFilter;
  endDate?: DateFilter;
}

/** Filters of `GET /v2/memo`. */
export interface MemoFilter extends ListOptions {
  startDate?: DateFilter;
  endDate?: DateFilter;
  ownerId?: string;
  dealId?: string;
  leadId?: string;
  peopleId?: string;
  organizationId?: string;
  /** The notes of one custom object. */
  customObjectId?: string;
  /** A note type's `_id` (`memos.types()`). */
  typeId?: string;
}

/** Filter of `GET /v2/todo`. */
export interface TodoFilter extends ListOptions {
  /** The user whose todos (their 담당자). */
  ownerId?: string;
}

/** Filter of a webhook's delivery log. */
export interface DeliveryFilter extends ListOptions {
  /** Only deliveries in this status. */
  status?: R.WebhookDeliveryStatus;
}

/** The record types of `GET /v2/field/{type}`. */
export type FieldRecordType =
  | 'people'
  | 'organization'
  | 'deal'
  | 'lead'
  | 'product'
  | 'quote'
  | 'quote-product'
  | 'todo'
  | 'custom-object';

/**
 * A record of a batch read: the record type's record, or (with `fieldList`) `id` and some of
 * its fields.
 */
export type BatchRecordOf<T extends Batch.BatchReadTypeName, C extends CustomFieldTypes> = {
  people: R.Person<C>;
  organization: R.Organization<C>;
  deal: R.Deal<C>;
  lead: R.Lead<C>;
  product: R.Product<C>;
  quote: R.Quote<C>;
  customObject: R.CustomObject<C>;
}[Batch.BatchObjectTypeOf<T>];

/** A record of `batch.read`: whole, or with `fieldList` its `id` and some of its fields. */
export type BatchReadRecord<
  T extends Batch.BatchReadTypeName,
  C extends CustomFieldTypes,
  F extends readonly string[] | undefined,
> = F extends readonly string[]
  ? Pick<BatchRecordOf<T, C>, 'id'> & Partial<BatchRecordOf<T, C>>
  : BatchRecordOf<T, C>;

const seg = (id: string): string => {
  if (typeof id !== 'string' || id === '') throw new TypeError('an id must be a non-empty string');
  return encodeURIComponent(id);
};

const dateParam = (value: DateFilter | undefined): string | undefined =>
  value instanceof Date ? value.toISOString() : value;

function activityQuery(idParam: string, id: string | undefined, f: ActivityFilter): QueryValues {
  return {
    [idParam]: id,
    types: f.types,
    startDate: dateParam(f.startDate),
    endDate: dateParam(f.endDate),
  };
}

/** Per-call options of a list's options (the rest are its filters). */
function callOf(o: ListOptions): ListOptions {
  const { signal, timeoutMs, maxRetries, limit } = o;
  return { signal, timeoutMs, maxRetries, limit };
}

/**
 * The Sales CRM API (v2) as typed methods. `C` gives each record type's custom fields
 * (`salescrm types --workspace ID` prints it):
 *
 * ```ts
 * const crm = new CrmClient<{ people: { '고객 등급': 'VIP' | '일반' | null } }>({ baseUrl, token });
 * for await (const person of crm.people.list()) console.log(person['고객 등급']);
 * ```
 */
export class CrmClient<C extends CustomFieldTypes = NoCustomFields> {
  readonly #t: Transport;

  constructor(options: CrmClientOptions) {
    this.#t = new Transport(options);
  }

  /** The base URL calls go to (without a trailing slash). */
  get baseUrl(): string {
    return this.#t.baseUrl;
  }

  #get<T>(path: string, o: CallOptions = {}, query?: QueryValues): Promise<T> {
    return this.#t.request<T>('GET', path, { ...o, query });
  }

  #post<T>(path: string, body: unknown, o: CallOptions = {}): Promise<T> {
    return this.#t.request<T>('POST', path, { ...o, body });
  }

  async #one<T>(path: string, key: string, o?: CallOptions): Promise<T> {
    const data = await this.#get<Record<string, unknown>>(path, o);
    const value = data[key];
    return (Array.isArray(value) ? value[0] : value) as T;
  }

  async #keyed<T>(path: string, key: string, body: unknown, o?: CallOptions): Promise<T> {
    const data = await this.#post<Record<string, T>>(path, body, o);
    return data[key]!;
  }

  #list<T>(path: string, key: string, o: ListOptions = {}, query: QueryValues = {}) {
    return new ListRequest<T>(this.#t, path, key, query, callOf(o));
  }

  #search(type: string, request: Bodies.SearchRequest, o: ListOptions = {}) {
    return new ListRequest<R.SearchObject>(
      this.#t,
      `/v2/object/${type}/search`,
      'objectList',
      {},
      callOf(o),
      request as Record<string, unknown>,
    );
  }

  /** People (customers): `GET/POST /v2/people`, their activities and history. */
  readonly people = {
    /**
     * Records matching `filterGroupList` (groups OR, filters AND), as `{id, name}` and the
     * fields of `fieldList`, in `sortList` order (oldest first by default). Each page counts
     * as 10 requests of the rate limit.
     */
    search: (request: Bodies.SearchRequest, o?: ListOptions) => this.#search('people', request, o),
    /** Every person, oldest first. */
    list: (o?: ListOptions) => this.#list<R.Person<C>>('/v2/people', 'peopleList', o),
    /** One person. */
    get: (id: string, o?: CallOptions) =>
      this.#one<R.Person<C>>(`/v2/people/${seg(id)}`, 'people', o),
    /** Creates a person (a duplicate e-mail is a `ValidationError`). */
    create: (body: Bodies.CreatePersonBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/people', 'people', body, o),
    /** Changes a person's fields. */
    update: (id: string, body: Bodies.UpdatePersonBody, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/people/${seg(id)}`, 'people', body, o),
    /** Writes a note on the people (as `memo` does); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/people/${seg(id)}/memo`, 'memo', body, o),
    /**
     * Merges the person `mergedId` into the person `id` and deletes it: what pointed at it
     * points at `id`, and fields empty on `id` take its values.
     */
    merge: (id: string, mergedId: string, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/people/${seg(id)}/merge`, 'people', { mergedId }, o),
    activities: {
      /** Activities of people, or of one (`peopleId`). */
      list: (f: ActivityFilter & { peopleId?: string } = {}) =>
        this.#list<R.PeopleActivity>(
          '/v2/people/activity',
          'peopleActivityList',
          f,
          activityQuery('peopleId', f.peopleId, f),
        ),
    },
    history: {
      /** Changes of people, or of one (`peopleId`). */
      list: (f: ListOptions & { peopleId?: string } = {}) =>
        this.#list<R.PeopleHistory>('/v2/people/history', 'peopleHistoryList', f, {
          peopleId: f.peopleId,
        }),
    },
  };

  /** Organizations (companies). */
  readonly organizations = {
    /**
     * Records matching `filterGroupList` (groups OR, filters AND), as `{id, name}` and the
     * fields of `fieldList`, in `sortList` order (oldest first by default). Each page counts
     * as 10 requests of the rate limit.
     */
    search: (request: Bodies.SearchRequest, o?: ListOptions) =>
      this.#search('organization', request, o),
    /** Every organization, oldest first. */
    list: (o?: ListOptions) =>
      this.#list<R.Organization<C>>('/v2/organization', 'organizationList', o),
    /** One organization. */
    get: (id: string, o?: CallOptions) =>
      this.#one<R.Organization<C>>(`/v2/organization/${seg(id)}`, 'organization', o),
    /** Creates an organization (its name is unique in the workspace). */
    create: (body: Bodies.CreateOrganizationBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/organization', 'organization', body, o),
    /** Changes an organization's fields. */
    update: (id: string, body: Bodies.UpdateOrganizationBody, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/organization/${seg(id)}`, 'organization', body, o),
    /** Writes a note on the organization (as `memo` does); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/organization/${seg(id)}/memo`, 'memo', body, o),
    /**
     * Merges the organization `mergedId` into the organization `id` and deletes it: its
     * people, deals, leads and the rest move to `id`, and fields empty on `id` take its values.
     */
    merge: (id: string, mergedId: string, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/organization/${seg(id)}/merge`, 'organization', { mergedId }, o),
    activities: {
      /** Activities of organizations, or of one. */
      list: (f: ActivityFilter & { organizationId?: string } = {}) =>
        this.#list<R.OrganizationActivity>(
          '/v2/organization/activity',
          'organizationActivityList',
          f,
          activityQuery('organizationId', f.organizationId, f),
        ),
    },
    history: {
      /** Changes of organizations, or of one. */
      list: (f: ListOptions & { organizationId?: string } = {}) =>
        this.#list<R.OrganizationHistory>(
          '/v2/organization/history',
          'organizationHistoryList',
          f,
          {
            organizationId: f.organizationId,
          },
        ),
    },
  };

  /** Deals, their quotes, activities, history and pipelines. */
  readonly deals = {
    /**
     * Records matching `filterGroupList` (groups OR, filters AND), as `{id, name}` and the
     * fields of `fieldList`, in `sortList` order (oldest first by default). Each page counts
     * as 10 requests of the rate limit.
     */
    search: (request: Bodies.SearchRequest, o?: ListOptions) => this.#search('deal', request, o),
    /** Every deal, oldest first, optionally of one pipeline and/or stage (exact names). */
    list: (f: ListOptions & { pipelineName?: string; pipelineStageName?: string } = {}) =>
      this.#list<R.Deal<C>>('/v2/deal', 'dealList', f, {
        pipelineName: f.pipelineName,
        pipelineStageName: f.pipelineStageName,
      }),
    /** One deal with `상담 일수`, `정체 일수`, `팔로워`, `참여자` (`마감일` is null while open). */
    get: (id: string, o?: CallOptions) =>
      this.#one<R.DealDetail<C>>(`/v2/deal/${seg(id)}`, 'deal', o),
    /** Creates a deal on a pipeline stage. */
    create: (body: Bodies.CreateDealBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/deal', 'deal', body, o),
    /** Changes a deal (its outcome with `status`, its label with `상태`). */
    update: (id: string, body: Bodies.UpdateDealBody, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/deal/${seg(id)}`, 'deal', body, o),
    /** Writes a note on the deal (as `memo` does); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/deal/${seg(id)}/memo`, 'memo', body, o),
    /** Deletes a deal with its quotes, activities, notes, todos and history. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/deal/${seg(id)}/delete`, undefined, o);
    },
    /**
     * Merges the deal `mergedId` into the deal `id` and deletes it: its quotes, activities
     * and the rest move to `id`, and fields empty on `id` take its values.
     */
    merge: (id: string, mergedId: string, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/deal/${seg(id)}/merge`, 'deal', { mergedId }, o),
    /** The quotes of a deal with their lines. */
    quotes: async (id: string, o?: CallOptions): Promise<R.Quote<C>[]> =>
      (await this.#get<{ quoteList: R.Quote<C>[] }>(`/v2/deal/${seg(id)}/quote`, o)).quoteList,
    /** The deal pipelines with their stages, in order. */
    pipelines: async (o?: CallOptions): Promise<R.Pipeline[]> =>
      (await this.#get<{ pipelineList: R.Pipeline[] }>('/v2/deal/pipeline', o)).pipelineList,
    activities: {
      /** Activities of deals and leads, or of one (`dealId`). */
      list: (f: ActivityFilter & { dealId?: string } = {}) =>
        this.#list<R.DealActivity>(
          '/v2/deal/activity',
          'dealActivityList',
          f,
          activityQuery('dealId', f.dealId, f),
        ),
    },
    history: {
      /** Changes of deals, or of one (`dealId`). */
      list: (f: ListOptions & { dealId?: string } = {}) =>
        this.#list<R.DealHistory>('/v2/deal/history', 'dealHistoryList', f, { dealId: f.dealId }),
    },
  };

  /** Leads, their quotes, activities, history and pipelines. */
  readonly leads = {
    /**
     * Records matching `filterGroupList` (groups OR, filters AND), as `{id, name}` and the
     * fields of `fieldList`, in `sortList` order (oldest first by default). Each page counts
     * as 10 requests of the rate limit.
     */
    search: (request: Bodies.SearchRequest, o?: ListOptions) => this.#search('lead', request, o),
    /** Every lead, oldest first. */
    list: (o?: ListOptions) => this.#list<R.Lead<C>>('/v2/lead', 'leadList', o),
    /** One lead. */
    get: (id: string, o?: CallOptions) => this.#one<R.Lead<C>>(`/v2/lead/${seg(id)}`, 'lead', o),
    /** Creates a lead. */
    create: (body: Bodies.CreateLeadBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/lead', 'lead', body, o),
    /** Changes a lead. */
    update: (id: string, body: Bodies.UpdateLeadBody, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/lead/${seg(id)}`, 'lead', body, o),
    /** Writes a note on the lead (as `memo` does); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/lead/${seg(id)}/memo`, 'memo', body, o),
    /** Deletes a lead with its quotes, activities, notes, todos and history. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/lead/${seg(id)}/delete`, undefined, o);
    },
    /**
     * Merges the lead `mergedId` into the lead `id` and deletes it: its quotes, activities
     * and the rest move to `id`, and fields empty on `id` take its values.
     */
    merge: (id: string, mergedId: string, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/lead/${seg(id)}/merge`, 'lead', { mergedId }, o),
    /** The quotes of a lead with their lines. */
    quotes: async (id: string, o?: CallOptions): Promise<R.Quote<C>[]> =>
      (await this.#get<{ quoteList: R.Quote<C>[] }>(`/v2/lead/${seg(id)}/quote`, o)).quoteList,
    /** The lead pipelines with their stages, in order. */
    pipelines: async (o?: CallOptions): Promise<R.Pipeline[]> =>
      (await this.#get<{ pipelineList: R.Pipeline[] }>('/v2/lead/pipeline', o)).pipelineList,
    activities: {
      /** Activities of leads, or of one (`leadId`). */
      list: (f: ActivityFilter & { leadId?: string } = {}) =>
        this.#list<R.LeadActivity>(
          '/v2/lead/activity',
          'leadActivityList',
          f,
          activityQuery('leadId', f.leadId, f),
        ),
    },
    history: {
      /** Changes of leads, or of one (`leadId`). */
      list: (f: ListOptions & { leadId?: string } = {}) =>
        this.#list<R.LeadHistory>('/v2/lead/history', 'leadHistoryList', f, { leadId: f.leadId }),
    },
  };

  /** Products. */
  readonly products = {
    /** Every product, oldest first. */
    list: (o?: ListOptions) => this.#list<R.Product<C>>('/v2/product', 'productList', o),
    /** Creates a product (`유형` `일반` unless `fieldList` says otherwise). */
    create: (body: Bodies.CreateProductBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/product', 'product', body, o),
    /** Changes a product (`유형` only while no quote uses it: else a `ConflictError`). */
    update: (id: string, body: Bodies.UpdateProductBody, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/product/${seg(id)}`, 'product', body, o),
    /** Deletes a product with its notes; one that a quote uses is a `ConflictError`. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/product/${seg(id)}/delete`, undefined, o);
    },
    /** Writes a note on the product (as `memo` does); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/product/${seg(id)}/memo`, 'memo', body, o),
  };

  /** Custom objects (the workspace's own record types): definitions, records, activities, history. */
  readonly customObjects = {
    /** The workspace's custom object definitions, in their order. */
    definitions: async (o?: CallOptions): Promise<R.CustomObjectDefinition[]> =>
      (
        await this.#get<{ customObjectDefinitionList: R.CustomObjectDefinition[] }>(
          '/v2/custom-object-definitions',
          o,
        )
      ).customObjectDefinitionList,
    /**
     * Records, oldest first: all, or those of one definition by id and/or name (an unknown
     * definition is a `NotFoundError`).
     */
    list: (
      f: ListOptions & {
        customObjectDefinitionId?: string;
        customObjectDefinitionName?: string;
      } = {},
    ) =>
      this.#list<R.CustomObject<C>>('/v2/custom-object', 'customObjectList', f, {
        customObjectDefinitionId: f.customObjectDefinitionId,
        customObjectDefinitionName: f.customObjectDefinitionName,
      }),
    /** One record. */
    get: (id: string, o?: CallOptions) =>
      this.#one<R.CustomObject<C>>(`/v2/custom-object/${seg(id)}`, 'customObject', o),
    /** Creates a record of a definition; `fieldList` must hold its 대표 field `이름`. */
    create: (body: Bodies.CreateCustomObjectBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/custom-object', 'customObject', body, o),
    /** Changes a record's fields or stage, or adds a note. */
    update: (id: string, body: Bodies.UpdateCustomObjectBody, o?: CallOptions) =>
      this.#post<R.CustomObjectUpdated>(`/v2/custom-object/${seg(id)}`, body, o),
    /** Deletes a record with its notes, activities, todos, history and files. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/custom-object/${seg(id)}/delete`, undefined, o);
    },
    /** Writes a note on the record (as `memo` does); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/custom-object/${seg(id)}/memo`, 'memo', body, o),
    activities: {
      /** Activities of custom objects, or of one (`customObjectId`). */
      list: (f: ActivityFilter & { customObjectId?: string } = {}) =>
        this.#list<R.CustomObjectActivity>(
          '/v2/custom-object/activity',
          'customObjectActivityList',
          f,
          activityQuery('customObjectId', f.customObjectId, f),
        ),
    },
    history: {
      /** Changes of custom objects, or of one (`customObjectId`). */
      list: (f: ListOptions & { customObjectId?: string } = {}) =>
        this.#list<R.CustomObjectHistory>(
          '/v2/custom-object/history',
          'customObjectHistoryList',
          f,
          {
            customObjectId: f.customObjectId,
          },
        ),
    },
  };

  /** Quotes (read through `deals.quotes` and `leads.quotes`). */
  readonly quotes = {
    /** Creates a quote of one deal or one lead, with its lines. */
    create: (body: Bodies.CreateQuoteBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/quote', 'quote', body, o),
    /** Writes a note on the quote (as `memo` does); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/quote/${seg(id)}/memo`, 'memo', body, o),
  };

  /** Pipelines of every kind (`deals.pipelines` and `leads.pipelines` give one kind each). */
  readonly pipelines = {
    /** Every deal and lead pipeline with its stages, in order; ids under `_id`. */
    list: async (o?: CallOptions): Promise<R.AnyPipeline[]> =>
      (await this.#get<{ pipelineList: R.AnyPipeline[] }>('/v2/pipeline', o)).pipelineList,
  };

  /** Files (kept in the database): upload, a record's files, download, delete. */
  readonly files = {
    /**
     * Uploads one file (at most 25 MB; jpeg, png, gif, webp, pdf, zip, doc(x), xls(x),
     * ppt(x), txt, csv, and the audio of recordings: mp3, m4a, wav, ogg, webm), attached to a
     * record when `objectType` and `objectId` are given.
     */
    upload: async (
      file: { name: string; data: Blob | Uint8Array; contentType?: string },
      options: {
        objectType?: R.FileObjectType;
        objectId?: string;
        memo?: string;
      } & CallOptions = {},
    ): Promise<R.UploadedFile> => {
      const form = new FormData();
      if (options.objectType !== undefined) form.set('objectType', options.objectType);
      if (options.objectId !== undefined) form.set('objectId', options.objectId);
      if (options.memo !== undefined) form.set('memo', options.memo);
      const blob =
        file.data instanceof Blob
          ? file.data
          : new Blob([file.data as Uint8Array<ArrayBuffer>], {
              type: file.contentType ?? 'application/octet-stream',
            });
      form.set('file', blob, file.name);
      return this.#t.request<R.UploadedFile>('POST', '/v2/file', { ...callOf(options), form });
    },
    /** The files of a record, oldest first. */
    list: (filter: { objectType: R.FileObjectType; objectId: string }, o?: ListOptions) =>
      this.#list<R.FileListItem>('/v2/file', 'fileList', o, {
        objectType: filter.objectType,
        objectId: filter.objectId,
      }),
    /** A file's bytes, with its media type and name. */
    download: (id: string, o?: CallOptions): Promise<Download> =>
      this.#t.download(`/v2/file/${seg(id)}/content`, o),
    /** Deletes a file and its bytes. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/file/${seg(id)}/delete`, undefined, o);
    },
  };

  /** E-mail sent through the server's SMTP server (`SMTP_URL`). */
  readonly email = {
    /**
     * Sends an e-mail (attachments from `files.upload` ids); with `idempotencyKey`, a send
     * repeated with the key (a retry) answers the first one's result and sends nothing.
     */
    send: (
      body: Bodies.SendEmailBody,
      o: CallOptions & { idempotencyKey?: string } = {},
    ): Promise<R.SentEmail> =>
      this.#t.request<R.SentEmail>('POST', '/v2/email', {
        ...callOf(o),
        body,
        ...(o.idempotencyKey === undefined
          ? {}
          : { headers: { 'Idempotency-Key': o.idempotencyKey } }),
      }),
    /** A sent e-mail. */
    get: async (id: string, o?: CallOptions): Promise<R.Email> =>
      (await this.#get<{ email: R.Email }>(`/v2/email/${seg(id)}`, o)).email,
  };

  /** Recordings another system made, kept with their audio (a file uploaded first). */
  readonly recordings = {
    /** Keeps a recording of a record: its audio (`files.upload` id), title, duration, transcript. */
    create: (body: Bodies.CreateRecordingBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/recording', 'recording', body, o),
    /** A recording. */
    get: async (id: string, o?: CallOptions): Promise<R.Recording> =>
      (await this.#get<{ recording: R.Recording }>(`/v2/recording/${seg(id)}`, o)).recording,
    /** A recording's transcript. */
    transcript: async (id: string, o?: CallOptions): Promise<R.RecordingTranscript> =>
      (
        await this.#get<{ recordingTranscript: R.RecordingTranscript }>(
          `/v2/recording/${seg(id)}/transcript`,
          o,
        )
      ).recordingTranscript,
    /** Deletes a recording, its audio file and its activity. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/recording/${seg(id)}/delete`, undefined, o);
    },
  };

  /** Users of the workspace. */
  readonly users = {
    /** Every user, oldest first. */
    list: (o?: ListOptions) => this.#list<R.User>('/v2/user', 'userList', o),
    /** The token's user, with the workspace as `room`. */
    me: async (o?: CallOptions): Promise<R.Me> =>
      (await this.#get<{ user: R.Me }>('/v2/user/me', o)).user,
    /** The same as `me`, through `GET /v2/me` (the live API's short path). */
    meShort: async (o?: CallOptions): Promise<R.Me> =>
      (await this.#get<{ user: R.Me }>('/v2/me', o)).user,
  };

  /** Teams. */
  readonly teams = {
    /** Every team with its members. */
    list: (o?: ListOptions) => this.#list<R.Team>('/v2/team', 'teamList', o),
  };

  /** Todos. */
  readonly todos = {
    /** Every todo, oldest first; with `ownerId`, those of one user. */
    list: (f: TodoFilter = {}) =>
      this.#list<R.Todo<C>>('/v2/todo', 'todoList', f, { ownerId: f.ownerId }),
    /** Creates a todo on one deal, lead, person or organization (`내용` in `fieldList`). */
    create: (body: Bodies.CreateTodoBody, o?: CallOptions) =>
      this.#keyed<R.Created>('/v2/todo', 'todo', body, o),
    /** Changes a todo's fields. */
    update: (id: string, body: Bodies.UpdateTodoBody, o?: CallOptions) =>
      this.#keyed<R.Updated>(`/v2/todo/${seg(id)}`, 'todo', body, o),
    /** Completes a todo (`완료` true, `완료 날짜` now), or opens it again with `done` false. */
    complete: (id: string, done = true, o?: CallOptions) =>
      this.#keyed<R.Updated>(
        `/v2/todo/${seg(id)}`,
        'todo',
        { fieldList: [{ name: '완료', booleanValue: done }] },
        o,
      ),
    /** Deletes a todo, its `todoCreate` activity and the notes written on it. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/todo/${seg(id)}/delete`, undefined, o);
    },
    /** Writes a note on the todo (on its record too); answers the note. */
    addMemo: (id: string, body: Bodies.AddMemoBody, o?: CallOptions) =>
      this.#keyed<R.Memo>(`/v2/todo/${seg(id)}/memo`, 'memo', body, o),
  };

  /** The event feed: every change to people, organizations, leads and deals, in order. */
  readonly events = {
    /**
     * The events after `cursor` (none: from the oldest kept): iterate for every event waiting
     * now, then keep `.cursor` to poll from later.
     */
    list: (o: EventFeedOptions = {}) => new EventFeed(this.#t, o),
  };

  /** Notes (memos). */
  readonly memos = {
    /** Every note, oldest first, with filters. */
    list: (f: MemoFilter = {}) =>
      this.#list<R.MemoListItem>('/v2/memo', 'memoList', f, {
        startDate: dateParam(f.startDate),
        endDate: dateParam(f.endDate),
        ownerId: f.ownerId,
        dealId: f.dealId,
        leadId: f.leadId,
        peopleId: f.peopleId,
        organizationId: f.organizationId,
        typeId: f.typeId,
        customObjectId: f.customObjectId,
      }),
    /** One note. */
    get: async (id: string, o?: CallOptions): Promise<R.Memo> =>
      (await this.#get<{ memo: R.Memo }>(`/v2/memo/${seg(id)}`, o)).memo,
    /** The note types (`_id`, `value`, `color`). */
    types: async (o?: CallOptions): Promise<R.MemoType[]> =>
      (await this.#get<{ typeList: R.MemoType[] }>('/v2/memo/type-list', o)).typeList,
  };

  /** Web forms and their submissions. */
  readonly webForms = {
    /** Every web form. */
    list: (o?: ListOptions) => this.#list<R.WebForm>('/v2/webForm', 'webFormList', o),
    /** The submissions of one web form, oldest first. */
    submissions: (webFormId: string, o?: ListOptions) =>
      this.#list<R.WebFormSubmission>(
        `/v2/webForm/${seg(webFormId)}/submit`,
        'webFormSubmitList',
        o,
      ),
  };

  /**
   * The records a person, organization, deal, lead or custom object is associated with:
   * `primary` lists the ids its own links give (`memo`: its notes), `custom` the records
   * custom Ref fields link.
   */
  readonly associations = {
    /** Ids of the records (or notes) linked to the record by their own keys, oldest first. */
    primary: (
      targetType: 'people' | 'organization' | 'deal' | 'lead' | 'custom-object',
      targetId: string,
      toTargetType: 'people' | 'organization' | 'deal' | 'lead' | 'memo',
      o?: ListOptions,
    ) =>
      this.#list<string>(
        `/v2/object/${targetType}/${seg(targetId)}/association/${toTargetType}/primary`,
        'associationIdList',
        o,
      ),
    /** Records linked to the record by custom Ref fields, `label` the field's name. */
    custom: (
      targetType: 'people' | 'organization' | 'deal' | 'lead' | 'custom-object',
      targetId: string,
      toTargetType: 'people' | 'organization' | 'deal' | 'lead' | 'custom-object',
      o?: ListOptions,
    ) =>
      this.#list<R.AssociationItem>(
        `/v2/object/${targetType}/${seg(targetId)}/association/${toTargetType}/custom`,
        'associationItemList',
        o,
      ),
  };

  /** Sequences: their steps, enrollments and timelines; enroll and unenroll people. */
  readonly sequences = {
    /** Every sequence, oldest first. */
    list: (o?: ListOptions) => this.#list<R.Sequence>('/v2/sequence', 'sequenceList', o),
    /** One sequence, or null when the workspace has none of that id. */
    get: async (id: string, o?: CallOptions): Promise<R.Sequence | null> =>
      (await this.#get<{ sequence: R.Sequence | null }>(`/v2/sequence/${seg(id)}`, o)).sequence,
    /** The steps of a sequence, in step order. */
    steps: (id: string, o?: ListOptions) =>
      this.#list<R.SequenceStep>(`/v2/sequence/${seg(id)}/step`, 'stepList', o),
    /** The enrollments of a sequence, oldest first. */
    enrollments: (id: string, o?: ListOptions) =>
      this.#list<R.SequenceEnrollment>(
        `/v2/sequence/${seg(id)}/enrollment`,
        'sequenceEnrollmentList',
        o,
      ),
    /** What happened in an enrollment (e-mails sent, opened, clicked, answered), oldest first. */
    timeline: (enrollId: string, o?: ListOptions) =>
      this.#list<R.SequenceTimelineEvent>(
        `/v2/sequence/enrollment/${seg(enrollId)}/timeline`,
        'timelineList',
        o,
      ),
    /** Enrolls a person in a sequence; the person's sequence fields follow. */
    enroll: (id: string, peopleId: string, o?: CallOptions) =>
      this.#keyed<R.SequenceEnrollment>(
        `/v2/sequence/${seg(id)}/enrollment`,
        'sequenceEnrollment',
        { peopleId },
        o,
      ),
    /** Takes an enrollment away, with its timeline. */
    unenroll: async (enrollId: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/sequence/enrollment/${seg(enrollId)}/delete`, undefined, o);
    },
  };

  /** Webhooks of the workspace and their delivery logs. */
  readonly webhooks = {
    /**
     * Registers a webhook; its URL must answer a signed verification POST with a 2xx within
     * 10 s. The answer carries the `secret`, shown only now.
     */
    create: (body: Bodies.CreateWebhookBody, o?: CallOptions) =>
      this.#keyed<R.NewWebhook>('/v2/webhook', 'webhook', body, o),
    /** Every webhook of the workspace, without secrets. */
    list: async (o?: CallOptions): Promise<R.Webhook[]> =>
      (await this.#get<{ webhookList: R.Webhook[] }>('/v2/webhook', o)).webhookList,
    /** One webhook. */
    get: async (id: string, o?: CallOptions): Promise<R.Webhook> =>
      (await this.#get<{ webhook: R.Webhook }>(`/v2/webhook/${seg(id)}`, o)).webhook,
    /** Changes a webhook (a new URL is verified again; `status: 'active'` re-enables it). */
    update: (id: string, body: Bodies.UpdateWebhookBody, o?: CallOptions) =>
      this.#keyed<R.Webhook>(`/v2/webhook/${seg(id)}`, 'webhook', body, o),
    /** Deletes a webhook with its deliveries. */
    delete: async (id: string, o?: CallOptions): Promise<void> => {
      await this.#post(`/v2/webhook/${seg(id)}/delete`, undefined, o);
    },
    /** A new secret; the old one keeps signing beside it for 24 hours. */
    rotateSecret: (id: string, o?: CallOptions) =>
      this.#keyed<R.NewWebhook>(`/v2/webhook/${seg(id)}/rotate-secret`, 'webhook', undefined, o),
    /** The deliveries of a webhook, newest first, optionally in one status. */
    deliveries: (webhookId: string, f: DeliveryFilter = {}) =>
      this.#list<R.WebhookDelivery>(`/v2/webhook/${seg(webhookId)}/delivery`, 'deliveryList', f, {
        status: f.status,
      }),
    /** Sends a delivery again (it is pending and due now). */
    replay: async (webhookId: string, deliveryId: string, o?: CallOptions): Promise<void> => {
      await this.#post(
        `/v2/webhook/${seg(webhookId)}/delivery/${seg(deliveryId)}/replay`,
        undefined,
        o,
      );
    },
  };

  /**
   * Batch calls (`/v3`): many records of a type read, created or updated at once (a write
   * is one transaction: one refused item refuses it, a `ValidationError` whose
   * `body.data.index` names it), and a record type's pipelines and associations. Each read or
   * write counts 10 requests against the rate limit.
   */
  readonly batch = {
    /**
     * Up to 500 records by id, in the order asked, each once; ids the workspace does not
     * have are left out. With `fieldList`, each record has `id` and those fields only.
     */
    read: async <
      T extends Batch.BatchReadTypeName,
      F extends readonly string[] | undefined = undefined,
    >(
      body: Batch.BatchReadInput<T> & { fieldList?: F },
      o?: CallOptions,
    ): Promise<BatchReadRecord<T, C, F>[]> =>
      (await this.#post<{ objectList: BatchReadRecord<T, C, F>[] }>('/v3/object/read', body, o))
        .objectList,
    /** Creates up to 100 records (`data` by field name); `{id, name, createdAt}` of each, in order. */
    create: async (body: Batch.BatchCreateInput, o?: CallOptions): Promise<R.Created[]> =>
      (await this.#post<{ objectList: R.Created[] }>('/v3/object/create', body, o)).objectList,
    /** Updates up to 100 records by id; `{id, name, updatedAt}` of each, in order. */
    update: async (body: Batch.BatchUpdateInput, o?: CallOptions): Promise<R.Updated[]> =>
      (await this.#post<{ objectList: R.Updated[] }>('/v3/object/update', body, o)).objectList,
    /** The pipelines of deals or leads with their stages. */
    pipelines: async (
      objectType: 'deal' | 'lead' | '딜' | '리드',
      o?: CallOptions,
    ): Promise<R.Pipeline[]> =>
      (await this.#post<{ pipelineList: R.Pipeline[] }>('/v3/pipeline/list', { objectType }, o))
        .pipelineList,
    /**
     * The record types a type can be associated with, and the field that links them
     * (`customObject`: the records of every custom object definition).
     */
    associations: async (
      objectType: Batch.AssociationTypeName,
      o?: CallOptions,
    ): Promise<Batch.Association[]> =>
      (
        await this.#post<{ associationList: Batch.Association[] }>(
          '/v3/association/list',
          { objectType },
          o,
        )
      ).associationList,
  };

  /** Field lists: the built-in then the custom fields of a record type. */
  readonly fields = {
    /**
     * The fields of a record type, with select options; for `custom-object`, those of every
     * definition (or of `customObjectDefinitionId`), each with its definition's id.
     */
    list: async (
      type: FieldRecordType,
      o: CallOptions & { customObjectDefinitionId?: string } = {},
    ): Promise<R.Field[]> => {
      const { customObjectDefinitionId, ...call } = o;
      const path = `/v2/field/${seg(type)}`;
      return (await this.#get<{ fieldList: R.Field[] }>(path, call, { customObjectDefinitionId }))
        .fieldList;
    },
    /**
     * Defines a custom field of a record type: every record of the type shows it (null until
     * set). A name the type has already is a `ConflictError`.
     */
    create: (type: FieldRecordType, body: Bodies.CreateFieldBody, o?: CallOptions) =>
      this.#keyed<R.FieldDefinition>(`/v2/field/${seg(type)}`, 'field', body, o),
    /** Renames a custom field, changes its description, or adds options to a select field. */
    update: (
      type: FieldRecordType,
      fieldId: string,
      body: Bodies.UpdateFieldBody,
      o?: CallOptions,
    ) => this.#keyed<R.FieldDefinition>(`/v2/field/${seg(type)}/${seg(fieldId)}`, 'field', body, o),
  };
}
