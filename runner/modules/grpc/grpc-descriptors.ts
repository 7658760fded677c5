// The methods a k6/net/grpc client knows (client.load, loadProtoset, reflection), on
// @grpc/proto-loader: each method's path and kind, and its messages as k6 reads and shows them
// (protojson with unpopulated fields: lowerCamel names, 64-bit integers as strings, enums by name,
// bytes in base64, an unset message field as null).
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type * as ProtoLoader from '@grpc/proto-loader';
import { goError } from '../api/go-error.js';
import { protoJsonRequest, type TypeLookup } from './grpc-protojson.js';

/**
 * Loaded on the first client.load(): scripts without gRPC do not pay for protobufjs. By absolute
 * path, which the VU's creator resolves, since a VU worker runs from an eval'd bundle.
 */
let loader: typeof ProtoLoader | undefined;
let loaderPath: string | undefined;
export function useProtoLoaderAt(file: string): void {
  loaderPath = file;
}
function protoLoader(): typeof ProtoLoader {
  if (!loader) {
    if (!loaderPath) throw new Error('@grpc/proto-loader: no path given (useProtoLoaderAt)');
    loader = createRequire(loaderPath)(loaderPath) as typeof ProtoLoader;
  }
  return loader;
}

const OPTIONS: ProtoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  arrays: true,
  objects: true,
  oneofs: false,
  json: true,
};

/** One entry of what client.load() returns, in k6's key order. */
export interface MethodInfo {
  package: string;
  service: string;
  full_method: string;
  name: string;
  is_client_stream: boolean;
  is_server_stream: boolean;
}

export interface GrpcMethod {
  path: string;
  clientStreaming: boolean;
  serverStreaming: boolean;
  /** The request as the script gave it (after k6's JSON round trip), to protobuf bytes. */
  encode(request: unknown): Uint8Array;
  /** Protobuf bytes to the object k6 gives the script. */
  decode(bytes: Uint8Array): unknown;
}

export class MethodTable {
  private readonly methods = new Map<string, GrpcMethod>();

  get(path: string): GrpcMethod | undefined {
    return this.methods.get(path);
  }

  /**
   * client.load(importPaths, ...files): import paths and files relative to the script's folder. As
   * k6's resolver (protocompile through protoparse), a file is looked for under each import path
   * joined to it (Go's filepath.Join: an absolute file is not let out of the import path), the
   * script's folder when none is given; one found nowhere is named as the last attempt names it.
   */
  loadProtos(scriptDir: string, importPaths: string[], files: string[]): MethodInfo[] {
    const given = importPaths.length > 0 ? importPaths.map((p) => p.replace(/^file:\/\//, '')) : [scriptDir];
    const dirs = given.map((p) => path.resolve(scriptDir, p));
    for (const file of files) {
      const joined = given.map((dir) => path.join(dir, file));
      if (joined.some((candidate) => existsSync(path.resolve(scriptDir, candidate)))) continue;
      const last = joined.at(-1)!;
      const stat = `stat ${path.resolve(scriptDir, last)}: no such file or directory`;
      // protoparse names the path it opened, protocompile the file asked for, where the error does not.
      const failed = stat.includes(last) ? stat : `${last}: ${stat}`;
      throw goError(
        failed.includes(file) ? failed : `could not resolve path ${JSON.stringify(file)}: ${failed}`,
      );
    }
    let definition: ProtoLoader.PackageDefinition;
    try {
      definition = protoLoader().loadSync(files, { ...OPTIONS, includeDirs: dirs });
    } catch (err) {
      throw goError((err as Error).message);
    }
    return this.add(definition);
  }

  /** client.loadProtoset(file): a serialized FileDescriptorSet. */
  loadProtoset(scriptDir: string, file: string): MethodInfo[] {
    const abs = path.resolve(scriptDir, file);
    let bytes: Buffer;
    try {
      bytes = readFileSync(abs);
    } catch {
      throw goError(`couldn't open protoset: stat ${abs}: no such file or directory`);
    }
    return this.addFileDescriptorSet(bytes, file);
  }

  /** Serialized FileDescriptorProtos (what reflection answers) as one FileDescriptorSet. */
  addFiles(files: Uint8Array[]): MethodInfo[] {
    return this.addFileDescriptorSet(fileDescriptorSet(files), 'reflection');
  }

  private addFileDescriptorSet(bytes: Buffer, what: string): MethodInfo[] {
    let definition: ProtoLoader.PackageDefinition;
    try {
      definition = protoLoader().loadFileDescriptorSetFromBuffer(bytes, OPTIONS);
    } catch (err) {
      throw goError(`couldn't unmarshal protoset file ${what}: ${(err as Error).message}`);
    }
    return this.add(definition);
  }

  private add(definition: ProtoLoader.PackageDefinition): MethodInfo[] {
    const infos: MethodInfo[] = [];
    const lookup = typeLookup(definition);
    for (const [fullName, def] of Object.entries(definition)) {
      if ('format' in def) continue; // a message or an enum
      const dot = fullName.lastIndexOf('.');
      for (const [name, method] of Object.entries(def as ProtoLoader.ServiceDefinition)) {
        this.methods.set(method.path, {
          path: method.path,
          clientStreaming: method.requestStream,
          serverStreaming: method.responseStream,
          encode: (request) => {
            const checked = protoJsonRequest(request, requestName(definition, method.requestType), lookup);
            return new Uint8Array(method.requestSerialize(checked as object));
          },
          decode: (bytes) => method.responseDeserialize(Buffer.from(bytes)),
        });
        infos.push({
          package: dot < 0 ? '' : fullName.slice(0, dot),
          service: fullName.slice(dot + 1),
          full_method: method.path,
          name,
          is_client_stream: method.requestStream,
          is_server_stream: method.responseStream,
        });
      }
    }
    return infos;
  }
}

/** The definition's messages and enums by full name, for grpc-protojson.ts. */
function typeLookup(definition: ProtoLoader.PackageDefinition): TypeLookup {
  return (fullName) => {
    const def = definition[fullName] as { format?: unknown; type?: unknown } | undefined;
    if (typeof def?.format !== 'string') return undefined;
    const kind = def.format.includes('EnumDescriptorProto') ? 'enum' : 'message';
    return { kind, type: def.type } as ReturnType<TypeLookup>;
  };
}

/** The full name of a method's request message (proto-loader gives its descriptor, not its name). */
function requestName(definition: ProtoLoader.PackageDefinition, request: { type: unknown }): string {
  const typeOf = (def: unknown) => (def as { type?: { name?: string } }).type;
  const named = Object.entries(definition).filter(
    ([, def]) => 'format' in def && typeOf(def)?.name === typeOf(request)?.name,
  );
  const same = named.find(([, def]) => JSON.stringify(typeOf(def)) === JSON.stringify(request.type));
  return (same ?? named[0])?.[0] ?? '';
}

/** A FileDescriptorSet's bytes: each FileDescriptorProto as field 1, length-delimited. */
export function fileDescriptorSet(files: Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) parts.push(Buffer.from([0x0a]), varint(file.length), Buffer.from(file));
  return Buffer.concat(parts);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}
