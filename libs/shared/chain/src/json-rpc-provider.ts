import { assert, JsonRpcPayload, JsonRpcProvider, JsonRpcResult } from 'ethers';

// ethers' JSON-RPC provider with the answer decoded by Node instead of by ethers' own UTF-8 decoder,
// which walks every byte in JavaScript: about 1.5 % of a payout's CPU in the bench's burst (P3),
// more than the JSON parse itself. The request is sent by the same FetchRequest (its timeout, its
// throttle retries, its redirects) and a failed answer is the same error (`assertOk`); a body that
// is not UTF-8 or not JSON is refused with the error ethers gives for it.
export class NodeDecodingJsonRpcProvider extends JsonRpcProvider {
  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    const request = this._getConnection();
    request.body = Buffer.from(JSON.stringify(payload));
    request.setHeader('content-type', 'application/json');
    const response = await request.send();
    response.assertOk();
    const answer = parseBody(response.body, response);
    return Array.isArray(answer) ? answer : [answer];
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

// As ethers' bodyJson: a body that is not UTF-8 is refused as not JSON (its UTF-8 error is caught there).
function parseBody(body: Uint8Array | null, response: object): JsonRpcResult | JsonRpcResult[] {
  try {
    return JSON.parse(body ? utf8.decode(body) : '') as JsonRpcResult | JsonRpcResult[];
  } catch {
    assert(false, 'response body is not valid JSON', 'UNSUPPORTED_OPERATION', {
      operation: 'bodyJson',
      info: { response },
    });
  }
}
