/** The web forms of the workspace (tag Workspace): list them, list a form's submissions. */
import { ListEnvelope } from '../envelopes.ts';
import { WebFormRecord, WebFormSubmitRecord } from '../records/web-forms.ts';
import { type Operation, read } from './operation.ts';
import { page } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const WEB_FORM_OPERATIONS: readonly Operation[] = [
  read(
    '/v2/webForm',
    'listWebForms',
    'List web forms',
    'Workspace',
    ListEnvelope('webFormList', WebFormRecord),
    {
      query: page,
    },
  ),
  read(
    '/v2/webForm/{webFormId}/submit',
    'listWebFormSubmissions',
    'List the submissions of a web form',
    'Workspace',
    ListEnvelope('webFormSubmitList', WebFormSubmitRecord),
    {
      query: page,
      notFound: true,
    },
  ),
];
