/** The operations of tag Products and quotes: list and create products, create a quote. */
import { CreateProductBody } from '../bodies/products.ts';
import { CreateQuoteBody } from '../bodies/quotes.ts';
import { CreatedEnvelope, ListEnvelope, WithFieldChoice } from '../envelopes.ts';
import { ProductRecord } from '../records/products-quotes.ts';
import { type Operation, read, write } from './operation.ts';
import { recordPage } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const PRODUCT_QUOTE_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/product',
    'listProducts',
    'List products',
    'Products and quotes',
    ListEnvelope('productList', WithFieldChoice(ProductRecord)),
    {
      query: recordPage,
    },
  ),
  write(
    '/v2/product',
    'createProduct',
    'Create a product',
    'Products and quotes',
    201,
    CreateProductBody,
    CreatedEnvelope('product'),
  ),
  write(
    '/v2/quote',
    'createQuote',
    'Create a quote',
    'Products and quotes',
    201,
    CreateQuoteBody,
    CreatedEnvelope('quote'),
  ),
];
