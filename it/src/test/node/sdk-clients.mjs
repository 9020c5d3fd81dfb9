// Runs two client SDKs, unchanged, against the simulators' HTTPS origins: Bitrix24's own JavaScript SDK
// (B24Hook from an incoming-webhook URL, which it accepts over HTTPS only) and a YooKassa client whose
// API root is an option. Node trusts the run's CA through NODE_EXTRA_CA_CERTS, set by the Java test.
// Prints one JSON line with what each SDK created and then read back.
import { B24Hook } from '@bitrix24/b24jssdk';
import { YooKassa } from '@webzaytsev/yookassa-ts-sdk';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const key = env('TOOLGATE_KEY');

async function call(b24, method, params) {
  const answer = await b24.actions.v2.call.make({ method, params });
  if (!answer.isSuccess) throw new Error(`${method}: ${answer.getErrorMessages().join('; ')}`);
  return answer.getData().result;
}

async function bitrix24() {
  const b24 = B24Hook.fromWebhookUrl(env('TOOLGATE_B24_WEBHOOK'));
  b24.offClientSideWarning(); // this is a server-side script, as the warning asks
  const id = await call(b24, 'crm.deal.add', {
    fields: { TITLE: 'SDK deal', ORIGINATOR_ID: 'sdk-test', ORIGIN_ID: key, OPPORTUNITY: 990, CURRENCY_ID: 'RUB' },
  });
  const deal = await call(b24, 'crm.deal.get', { id });
  return { id: String(id), title: deal.TITLE, originId: deal.ORIGIN_ID };
}

async function yooKassa() {
  const sdk = YooKassa({
    shop_id: env('TOOLGATE_YOOKASSA_SHOP_ID'),
    secret_key: env('TOOLGATE_YOOKASSA_SECRET_KEY'),
    endpoint: env('TOOLGATE_YOOKASSA_ENDPOINT'),
    retries: 0,
  });
  const created = await sdk.payments.create({
    amount: { value: '1500.00', currency: 'RUB' },
    capture: true,
    description: 'SDK payment',
    confirmation: { type: 'redirect', return_url: 'https://shop.example/return' },
    metadata: { gw_key: key, order_id: 'sdk-order-1' }, // the key again, as the gateway's adapter sends it
  }, key);
  const loaded = await sdk.payments.load(created.id);
  return { id: created.id, status: loaded.status, amount: loaded.amount.value };
}

const result = { deal: await bitrix24(), payment: await yooKassa() };
console.log(JSON.stringify(result));
