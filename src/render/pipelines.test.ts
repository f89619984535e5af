import { describe, expect, it } from 'vitest';
import { renderPipelines } from './pipelines.ts';

describe('renderPipelines', () => {
  it('keeps the pipelines’ order and indexes each pipeline’s stages from 0', () => {
    const out = renderPipelines(
      [
        { id: 'p2', name: '재계약' },
        { id: 'p1', name: '신규' },
        { id: 'p3', name: '빈' },
      ],
      [
        { pipeline_id: 'p1', id: 's1', name: '미팅' },
        { pipeline_id: 'p1', id: 's2', name: '계약' },
        { pipeline_id: 'p2', id: 's3', name: '검토' },
        { pipeline_id: 'other', id: 's4', name: '고아' },
      ],
    );
    expect(JSON.stringify(out)).toBe(
      JSON.stringify([
        { id: 'p2', name: '재계약', pipelineStageList: [{ id: 's3', name: '검토', index: 0 }] },
        {
          id: 'p1',
          name: '신규',
          pipelineStageList: [
            { id: 's1', name: '미팅', index: 0 },
            { id: 's2', name: '계약', index: 1 },
          ],
        },
        { id: 'p3', name: '빈', pipelineStageList: [] },
      ]),
    );
  });
});
