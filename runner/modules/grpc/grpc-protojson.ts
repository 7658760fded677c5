// A k6/net/grpc request read as k6 reads it: k6 turns the script's object into JSON and hands it to
// Go's protojson, which takes a field by its proto name (`big_number`) as well as its JSON name
// (`bigNumber`) and refuses an unknown field or a value of the wrong type, naming the line and column
// of the JSON text. protobufjs (under @grpc/proto-loader) knows only the lowerCamel name and converts
// whatever it gets, so the request is checked here first and its keys renamed to what it knows.
// Well-known types (google.protobuf.*) pass through unchecked: protojson reads them specially.

/** A field as @grpc/proto-loader describes it (its DescriptorProto, names already lowerCamel). */
interface FieldDescriptor {
  name: string;
  label: string;
  type: string;
  typeName: string;
}
interface MessageDescriptor {
  field: FieldDescriptor[];
  options?: { mapEntry?: boolean } | null;
}
interface EnumDescriptor {
  value: { name: string; number: number }[];
}
/** What the package definition holds for a message or an enum, by its full name. */
export type TypeLookup = (
  fullName: string,
) => { kind: 'message'; type: MessageDescriptor } | { kind: 'enum'; type: EnumDescriptor } | undefined;

class ProtoJsonError extends Error {}

/** JSON text scanned with each token's offset, as protojson reports positions. */
interface Node {
  at: number;
  raw: string;
  value: unknown;
  members?: [Node, Node][];
  items?: Node[];
}

function scan(text: string): Node {
  let i = 0;
  const value = (): Node => {
    const at = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: [Node, Node][] = [];
      while (text[i] !== '}') {
        if (text[i] === ',') i++;
        const key = value();
        i++; // ':'
        members.push([key, value()]);
      }
      i++;
      return { at, raw: '{', value: undefined, members };
    }
    if (c === '[') {
      i++;
      const items: Node[] = [];
      while (text[i] !== ']') {
        if (text[i] === ',') i++;
        items.push(value());
      }
      i++;
      return { at, raw: '[', value: undefined, items };
    }
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      i = j + 1;
      const raw = text.slice(at, i);
      return { at, raw, value: JSON.parse(raw) as string };
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i))!;
    i += m[0].length;
    return { at, raw: m[0], value: JSON.parse(m[0]) as unknown };
  };
  return value();
}

const snakeToCamel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

const INT_RANGES: Record<string, [number | bigint, number | bigint]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  sint32: [-(2 ** 31), 2 ** 31 - 1],
  sfixed32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  fixed32: [0, 2 ** 32 - 1],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

function integral(node: Node, kind: string): boolean {
  const text = typeof node.value === 'string' ? node.value : typeof node.value === 'number' ? node.raw : '';
  if (!/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) return false;
  const n = Number(text);
  if (!Number.isInteger(n)) return false;
  const [lo, hi] = INT_RANGES[kind]!;
  const big = /^-?\d+$/.test(text) ? BigInt(text) : BigInt(n);
  return big >= BigInt(lo) && big <= BigInt(hi);
}

const BASE64 = /^(?:[A-Za-z0-9+/]*={0,2}|[A-Za-z0-9_-]*={0,2})$/;

/** The request's JSON checked against `typeName`'s message; returns it with lowerCamel keys. */
export function protoJsonRequest(request: unknown, typeName: string, lookup: TypeLookup): unknown {
  const text = JSON.stringify(request);
  const column = (node: Node) => Buffer.byteLength(text.slice(0, node.at)) + 1;
  const fail = (node: Node, message: string): never => {
    throw new ProtoJsonError(`proto: (line 1:${column(node)}): ${message}`);
  };
  const syntax = (node: Node): never => {
    throw new ProtoJsonError(`proto: syntax error (line 1:${column(node)}): unexpected token ${node.raw}`);
  };

  const resolve = (scope: string, name: string): string => {
    if (name.startsWith('.')) return name.slice(1);
    const parts = scope.split('.');
    for (let n = parts.length; n >= 0; n--) {
      const candidate = [...parts.slice(0, n), name].join('.');
      if (lookup(candidate)) return candidate;
    }
    return name;
  };

  const singular = (field: FieldDescriptor, node: Node, scope: string): unknown => {
    const kind = field.type.replace(/^TYPE_/, '').toLowerCase();
    const invalid = () => fail(node, `invalid value for ${kind} field ${field.name}: ${node.raw}`);
    if (node.value === null && !node.members && !node.items) return null;
    switch (kind) {
      case 'string':
        return typeof node.value === 'string' ? node.value : invalid();
      case 'bool':
        return typeof node.value === 'boolean' ? node.value : invalid();
      case 'double':
      case 'float':
        if (typeof node.value === 'number') return node.value;
        if (
          typeof node.value === 'string' &&
          /^(NaN|-?Infinity|-?\d+(\.\d+)?([eE][+-]?\d+)?)$/.test(node.value)
        )
          return node.value;
        return invalid();
      case 'bytes':
        return typeof node.value === 'string' && BASE64.test(node.value) ? node.value : invalid();
      case 'enum': {
        const full = resolve(scope, field.typeName);
        if (full.startsWith('google.protobuf.')) return node.value;
        const found = lookup(full);
        const values = found?.kind === 'enum' ? found.type.value : [];
        if (typeof node.value === 'number' && Number.isInteger(node.value)) return node.value;
        if (typeof node.value === 'string' && values.some((v) => v.name === node.value)) return node.value;
        return invalid();
      }
      case 'message':
      case 'group': {
        const full = resolve(scope, field.typeName);
        if (full.startsWith('google.protobuf.')) return node.value ?? rebuild(node);
        if (!node.members) return syntax(node);
        return message(node, full);
      }
      default:
        return integral(node, kind) ? node.value : invalid();
    }
  };

  /** A value of a type not checked here, as it was. */
  const rebuild = (node: Node): unknown =>
    node.members
      ? Object.fromEntries(node.members.map(([k, v]) => [k.value as string, rebuild(v)]))
      : node.items
        ? node.items.map(rebuild)
        : node.value;

  const message = (node: Node, fullName: string): Record<string, unknown> => {
    const found = lookup(fullName);
    if (found?.kind !== 'message') return rebuild(node) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of node.members!) {
      const name = key.value as string;
      const field =
        found.type.field.find((f) => f.name === name) ??
        found.type.field.find((f) => f.name === snakeToCamel(name));
      if (!field) return fail(key, `unknown field ${key.raw}`);
      if (field.label === 'LABEL_REPEATED') {
        const entry = lookup(resolve(fullName, field.typeName));
        if (entry?.kind === 'message' && entry.type.options?.mapEntry) {
          out[field.name] = rebuild(value); // a map: protobufjs reads its keys and values
          continue;
        }
        if (value.value === null && !value.items && !value.members) continue;
        if (!value.items) return syntax(value);
        out[field.name] = value.items.map((item) => singular(field, item, fullName));
      } else {
        const v = singular(field, value, fullName);
        if (v !== null) out[field.name] = v;
      }
    }
    return out;
  };

  if (text === undefined) return request;
  const root = scan(text);
  if (!root.members) return syntax(root);
  return message(root, typeName);
}
