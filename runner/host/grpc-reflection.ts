// The client side of the gRPC server reflection protocol, as k6 uses it on connect({ reflect: true }):
// list the services, then ask for the file that defines each one (its dependencies come along).
// v1 first, v1alpha when the server does not implement v1 (the messages are the same).
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** The protocol's messages, only the fields used here (grpc/reflection/v1/reflection.proto). */
const REFLECTION_JSON = {
  nested: {
    reflection: {
      nested: {
        Request: {
          fields: {
            host: { type: 'string', id: 1 },
            fileContainingSymbol: { type: 'string', id: 4 },
            listServices: { type: 'string', id: 7 },
          },
        },
        Response: {
          fields: {
            fileDescriptorResponse: { type: 'FileDescriptorResponse', id: 4 },
            listServicesResponse: { type: 'ListServiceResponse', id: 6 },
            errorResponse: { type: 'ErrorResponse', id: 7 },
          },
        },
        FileDescriptorResponse: {
          fields: { fileDescriptorProto: { rule: 'repeated', type: 'bytes', id: 1 } },
        },
        ListServiceResponse: { fields: { service: { rule: 'repeated', type: 'ServiceResponse', id: 1 } } },
        ServiceResponse: { fields: { name: { type: 'string', id: 1 } } },
        ErrorResponse: {
          fields: { errorCode: { type: 'int32', id: 1 }, errorMessage: { type: 'string', id: 2 } },
        },
      },
    },
  },
};

const definitions = protoLoader.fromJSON(REFLECTION_JSON);
const request = definitions['reflection.Request'] as protoLoader.MessageTypeDefinition<object, object>;
const response = definitions['reflection.Response'] as protoLoader.MessageTypeDefinition<object, object>;

interface ReflectionResponse {
  fileDescriptorResponse?: { fileDescriptorProto: Buffer[] };
  listServicesResponse?: { service: { name: string }[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

const PATHS = [
  '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo',
  '/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo',
];

/** One reflection stream: each request is answered in order. */
class ReflectionStream {
  private readonly waiting: ((r: ReflectionResponse | Error) => void)[] = [];
  private readonly call: grpc.ClientDuplexStream<Record<string, string>, ReflectionResponse>;
  private failure: Error | undefined;

  constructor(client: grpc.Client, path: string, metadata: grpc.Metadata, deadline: number) {
    this.call = client.makeBidiStreamRequest(
      path,
      (m: Record<string, string>) => request.serialize(m),
      (b: Buffer) => response.deserialize(b) as ReflectionResponse,
      metadata,
      { deadline },
    );
    this.call.on('data', (r: ReflectionResponse) => this.waiting.shift()?.(r));
    this.call.on('error', (err: Error) => {
      this.failure = err;
      for (const w of this.waiting.splice(0)) w(err);
    });
  }

  ask(req: Record<string, string>): Promise<ReflectionResponse> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
      this.call.write(req);
    });
  }

  end(): void {
    this.call.end();
  }
}

/** Every file descriptor (serialized FileDescriptorProto) the server's services are defined in, once each. */
export async function reflectFiles(
  client: grpc.Client,
  metadata: grpc.Metadata,
  deadline: number,
): Promise<Uint8Array[]> {
  for (let i = 0; ; i++) {
    const stream = new ReflectionStream(client, PATHS[i]!, metadata, deadline);
    try {
      const listed = await stream.ask({ listServices: '' });
      if (listed.errorResponse) throw new Error(`can't list services: ${listed.errorResponse.errorMessage}`);
      const files: Uint8Array[] = [];
      const seen = new Set<string>();
      for (const { name } of listed.listServicesResponse?.service ?? []) {
        const found = await stream.ask({ fileContainingSymbol: name });
        if (found.errorResponse) {
          throw new Error(`can't get method on service "${name}": ${found.errorResponse.errorMessage}`);
        }
        for (const file of found.fileDescriptorResponse?.fileDescriptorProto ?? []) {
          const key = Buffer.from(file).toString('base64');
          if (seen.has(key)) continue;
          seen.add(key);
          files.push(new Uint8Array(file));
        }
      }
      stream.end();
      return files;
    } catch (err) {
      stream.end();
      const code = (err as { code?: number }).code;
      if (code === grpc.status.UNIMPLEMENTED && i + 1 < PATHS.length) continue;
      throw err;
    }
  }
}
