/**
 * @module
 * protobufjs's schema building made linear in the schema's size, by wraps of its prototypes (imported for
 * effect by schema.ts): unwrapped, n fields, reserved entries or early extensions cost n^2 or more.
 */
import protobuf from "protobufjs";

type Any = any;

/** Each field added goes into the message's fields by id, which protobufjs would rebuild after every add. */
function addFieldsInLinearTime(): void {
  const type = protobuf.Type.prototype as Any;
  const add = type.add;
  /** A message's fields by id as its last add left them (a oneof's add clears them after its fields'). */
  const kept = new WeakMap<object, Record<number, protobuf.Field>>();
  type.add = function (this: Any, object: protobuf.ReflectionObject) {
    if (!(object instanceof protobuf.Field && object.extend === undefined)) {
      kept.delete(this);
      const before = this._fieldsById;
      const added = add.call(this, object);
      this._fieldsById = kept.get(this) ?? before;
      return added;
    }
    const byId = this.fieldsById;
    const added = add.call(this, object);
    if (this.fields[object.name] !== object) return added;
    byId[object.id] = object;
    kept.set(this, this._fieldsById = byId);
    return added;
  };
}

/** What a message's or an enum's `reserved` list holds, read once per entry. */
type Reserved = { seen: number; ids: Set<number>; ranges: number[][]; names: Set<string> };

/** Whether an id or a name is reserved, from sets (protobufjs scans the whole list per field added). */
function checkReservedInLinearTime(): void {
  const namespace = protobuf.Namespace as Any;
  const read = new WeakMap<object, Reserved>();
  const of = (list: (number[] | string)[]): Reserved => {
    let r = read.get(list);
    if (r === undefined) read.set(list, r = { seen: 0, ids: new Set(), ranges: [], names: new Set() });
    for (; r.seen < list.length; r.seen++) {
      const entry = list[r.seen];
      if (typeof entry === "string") r.names.add(entry);
      else if (entry[0] === entry[1]) r.ids.add(entry[0]);
      else r.ranges.push(entry);
    }
    return r;
  };
  namespace.isReservedId = (list: (number[] | string)[] | undefined, id: number): boolean => {
    if (!list) return false;
    const r = of(list);
    return r.ids.has(id) || r.ranges.some(([from, to]) => from <= id && id <= to);
  };
  namespace.isReservedName = (list: (number[] | string)[] | undefined, name: string): boolean =>
    list ? of(list).names.has(name) : false;
}

/** Adds extension `field` to the message it extends, if the look-up finds it; false when not there yet. */
function extend(field: protobuf.Field): boolean {
  const extended = field.parent!.lookup(field.extend!) as Any;
  if (!extended) return false;
  const sister = new protobuf.Field(
    field.fullName,
    field.id,
    field.type,
    field.rule,
    undefined,
    field.options,
  );
  if (extended.get(sister.name)) return true;
  (sister as Any).declaringField = field;
  (field as Any).extensionField = sister;
  extended.add(sister);
  return true;
}

/** The last part of a dotted name (`Later` of `.big.Later`): the name of the message it can be. */
const lastPart = (name: string) => name.slice(name.lastIndexOf(".") + 1);

/** A message added retries only the extensions waiting for its name (protobufjs retries them all). */
function retryExtensionsByName(): void {
  const root = protobuf.Root.prototype as Any;
  const handleAdd = root._handleAdd;
  const resolveAll = root.resolveAll;
  const waiting = new WeakMap<object, Map<string, protobuf.Field[]>>();
  const named = new WeakMap<object, Set<string>>();
  const handled = new WeakSet<protobuf.Field>();
  root._handleAdd = function (this: Any, object: protobuf.ReflectionObject) {
    let index = waiting.get(this), names = named.get(this);
    if (index === undefined) waiting.set(this, index = new Map());
    if (names === undefined) named.set(this, names = new Set());
    if (!(object instanceof protobuf.Field)) names.add(object.name);
    if (!(object instanceof protobuf.Type)) {
      const field = object instanceof protobuf.Field && object.extend !== undefined && !object.extensionField
        ? object
        : null;
      if (field !== null && !names.has(lastPart(field.extend!))) {
        this.deferred.push(field);
        this._fullyQualifiedObjects[field.fullName] = field;
      } else {
        const before = this.deferred.length;
        handleAdd.call(this, object);
        if (this.deferred.length === before) return;
      }
      const last = this.deferred[this.deferred.length - 1] as protobuf.Field;
      const key = lastPart(last.extend!);
      const list = index.get(key);
      if (list === undefined) index.set(key, [last]);
      else list.push(last);
      return;
    }
    const all = this.deferred;
    const tried = index.get(object.name) ?? [];
    index.delete(object.name);
    // protobufjs's own retry loop sees none: it takes each handled one out by a splice, n^2 for n waiting.
    this.deferred = [];
    try {
      handleAdd.call(this, object);
    } finally {
      // Extensions declared inside the message went to the list in use during the call.
      for (const field of this.deferred) all.push(field);
      this.deferred = all;
    }
    for (const field of tried) {
      if (extend(field)) handled.add(field);
      else index.set(object.name, index.get(object.name) ?? []).get(object.name)!.push(field);
    }
  };
  root.resolveAll = function (this: Any) {
    this.deferred = this.deferred.filter((field: protobuf.Field) => !handled.has(field));
    return resolveAll.call(this);
  };
}

addFieldsInLinearTime();
checkReservedInLinearTime();
retryExtensionsByName();
