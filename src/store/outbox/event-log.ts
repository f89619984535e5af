import {
  changedKeys,
  type EventActor,
  type EventFacts,
  type EventFieldType,
  type EventObjectType,
  type EventTopic,
  eventFieldValue,
  fieldTypeKey,
  isEventObjectType,
  SYSTEM_ACTOR,
} from '../../domain/events.ts';
import { builtInField } from '../../domain/field-catalogue.ts';
import { newId } from '../../domain/ids.ts';
import { jsonObject } from '../../domain/json-object.ts';

/**
 * The events of one write transaction (docs/decisions.md, Events and webhooks), gathered while it
 * runs and written with it (`writeEvents`). One `eventId` names the write; records the write itself
 * created, changed or deleted carry its actor, records changed by derivation carry the system's.
 */
export class EventLog {
  readonly eventId = newId();
  readonly events: EventFacts[] = [];
  private readonly direct = new Set<string>();

  constructor(
    readonly actor: EventActor,
    readonly occurredAt: string,
  ) {}

  /** Marks a record as the write's own (created, updated, deleted or merged by it). */
  markDirect(type: string, id: string): void {
    if (isEventObjectType(type)) this.direct.add(`${type}\u0000${id}`);
  }

  private actorOf(type: EventObjectType, id: string): EventActor {
    return this.direct.has(`${type}\u0000${id}`) ? this.actor : SYSTEM_ACTOR;
  }

  private add(
    event: EventTopic,
    type: EventObjectType,
    id: string,
    field?: EventFacts['field'],
    definitionId?: string,
  ) {
    const facts: EventFacts = {
      event,
      occurredAt: this.occurredAt,
      actor: this.actorOf(type, id),
      objectType: type,
      objectId: id,
      eventId: this.eventId,
      field,
    };
    if (definitionId !== undefined) facts.customObjectDefinitionId = definitionId;
    this.events.push(facts);
  }

  /**
   * A record rendered anew: `생성` when it had no JSON before, else a `수정` for each key
   * whose value changed. `types` gives the field types that shape the values, by
   * `fieldTypeKey` (a custom object's fields by its definition). A stored
   * `before` that is not a JSON object (a body damaged by hand) makes no event: there is
   * nothing to compare, and the write that renders it again must not fail on it.
   */
  rendered(
    type: string,
    id: string,
    before: string | null,
    after: string,
    types: ReadonlyMap<string, EventFieldType> | undefined,
  ): void {
    if (!isEventObjectType(type)) return;
    if (before === null) {
      // A record is created by the write that creates it, never derived.
      this.created(type, id, type === 'customObject' ? definitionOf(after) : undefined);
      return;
    }
    if (before === after) return;
    const was = jsonObject(before);
    if (was === undefined) return;
    const now = JSON.parse(after) as Record<string, unknown>;
    const changes = changedKeys(was, now);
    const definitionId =
      type === 'customObject' ? String(now.customObjectDefinitionId ?? '') : undefined;
    for (const change of changes) {
      const fieldType =
        types?.get(fieldTypeKey(change.key, definitionId)) ?? builtInField(type, change.key)?.type;
      this.add(
        '수정',
        type,
        id,
        {
          name: change.key,
          before: eventFieldValue(change.before, fieldType),
          after: eventFieldValue(change.after, fieldType),
        },
        definitionId,
      );
    }
  }

  /**
   * A record the write created with its JSON already rendered (an import's records); a custom
   * object's with its definition's id.
   */
  created(type: string, id: string, definitionId?: string): void {
    if (!isEventObjectType(type)) return;
    this.markDirect(type, id);
    this.add('생성', type, id, undefined, definitionId);
  }

  /** The events gathered so far, handed over and forgotten (a long write writes in batches). */
  drain(): EventFacts[] {
    return this.events.splice(0);
  }

  /** A record deleted by the write (or merged away); a custom object's with its definition's id. */
  deleted(type: string, id: string, definitionId?: string): void {
    if (!isEventObjectType(type)) return;
    this.markDirect(type, id);
    this.add('삭제', type, id, undefined, definitionId);
  }

  /** A record that another was merged into. */
  merged(type: string, keptId: string): void {
    if (!isEventObjectType(type)) return;
    this.markDirect(type, keptId);
    this.add('병합', type, keptId);
  }
}

/** The definition a custom object's rendered JSON names (`customObjectDefinitionId`). */
function definitionOf(json: string): string {
  return String((JSON.parse(json) as Record<string, unknown>).customObjectDefinitionId ?? '');
}
