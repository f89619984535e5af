/**
 * The operations of tag Products and quotes: list, create, update and delete products,
 * create a quote.
 */
import { CreateProductBody, UpdateProductBody } from '../bodies/products.ts';
import { CreateQuoteBody } from '../bodies/quotes.ts';
import {
  CreatedEnvelope,
  Deleted,
  ListEnvelope,
  UpdatedEnvelope,
  WithFieldChoice,
} from '../envelopes.ts';
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
  {
    ...write(
      '/v2/product/{productId}',
      'updateProduct',
      'Update a product (its new name shows on the deals and leads whose main quote has it)',
      'Products and quotes',
      200,
      UpdateProductBody,
      UpdatedEnvelope('product'),
    ),
    conflict: true,
  },
  {
    ...write(
      '/v2/product/{productId}/delete',
      'deleteProduct',
      'Delete a product that no quote uses (409 while one does)',
      'Products and quotes',
      200,
      undefined,
      Deleted,
    ),
    conflict: true,
  },
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
