import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { EventEnvelope } from './envelope';
import { EVENT_PAYLOAD_CLASSES, EVENT_UPCASTS, EventMap, EventType, eventVersion } from './event-map';
import { compilePayloadCheck, PayloadCheck } from './payload-check';

export class InvalidEventError extends Error {}

function isEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_PAYLOAD_CLASSES, type);
}

// Consumers validate before acting: a malformed event is dead-lettered, never half-applied.
export function parseEnvelope(raw: string | Buffer): EventEnvelope<EventType, EventMap[EventType]> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString());
  } catch {
    throw new InvalidEventError('event value is not JSON');
  }
  if (typeof value !== 'object' || value === null)
    throw new InvalidEventError('event value is not an object');
  const env = value as Partial<EventEnvelope>;
  if (typeof env.id !== 'string' || typeof env.type !== 'string' || typeof env.merchantId !== 'string') {
    throw new InvalidEventError('event envelope lacks id, type or merchantId');
  }
  if (!isEventType(env.type)) throw new InvalidEventError(`unknown event type ${env.type}`);
  const data = validatePayload(env.type, upcast(env.type, env.version, env.data));
  return { ...(env as EventEnvelope), type: env.type, version: eventVersion(env.type), data };
}

// Brings the payload of an older version up to the version written today, so a handler sees one
// shape whatever was in flight when a deployment rolled. Types that never changed take any version.
function upcast(type: EventType, version: unknown, data: unknown): unknown {
  const upcasts = EVENT_UPCASTS[type];
  if (!upcasts || version === eventVersion(type)) return data;
  const up = typeof version === 'number' ? upcasts[version] : undefined;
  if (!up) throw new InvalidEventError(`${type}: unknown version ${String(version)}`);
  if (typeof data !== 'object' || data === null)
    throw new InvalidEventError(`${type}: data is not an object`);
  try {
    return up(data as Record<string, unknown>);
  } catch (err) {
    throw new InvalidEventError(`${type} version ${version}: ${(err as Error).message}`);
  }
}

// Each type's compiled check, made on first use (null: the type is always left to class-validator).
const payloadChecks = new Map<EventType, PayloadCheck | null>();

function payloadCheckOf(type: EventType): PayloadCheck | null {
  let check = payloadChecks.get(type);
  if (check === undefined) {
    check = compilePayloadCheck(EVENT_PAYLOAD_CLASSES[type] as new () => object) ?? null;
    payloadChecks.set(type, check);
  }
  return check;
}

// Every event is checked where it is written and again where it is consumed. A payload the compiled
// check passes is valid as it is; any other goes through class-validator, which says what is wrong.
export function validatePayload<K extends EventType>(type: K, data: unknown): EventMap[K] {
  if (typeof data !== 'object' || data === null)
    throw new InvalidEventError(`${type}: data is not an object`);
  if (payloadCheckOf(type)?.(data as Record<string, unknown>)) return data as EventMap[K];
  const instance = plainToInstance(EVENT_PAYLOAD_CLASSES[type] as new () => object, data) as EventMap[K];
  const errors = validateSync(instance as object, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new InvalidEventError(`${type}: ${detail.join('; ')}`);
  }
  return data as EventMap[K];
}
