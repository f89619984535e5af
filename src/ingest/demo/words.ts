/**
 * Word lists of the demo workspace (data only): Korean names with their romanized forms
 * (for e-mail addresses and domains), company name parts, job titles, products, and the
 * texts of notes, todos, web forms and sequences. Placeholders in texts are `{name}`,
 * `{title}`, `{org}`, `{product}`, `{dept}`, `{n}`, `{month}` and `{user}`.
 *
 * Names like 홍길동, 김철수 or 이영희 are left out on purpose: Korean readers see them as
 * placeholders, the way English readers see "John Doe".
 */

/** Surnames with their romanization and their rough share of the population (percent). */
export const SURNAMES: readonly (readonly [hangul: string, roman: string, weight: number])[] = [
  ['김', 'kim', 21.5],
  ['이', 'lee', 14.7],
  ['박', 'park', 8.4],
  ['최', 'choi', 4.7],
  ['정', 'jung', 4.4],
  ['강', 'kang', 2.3],
  ['조', 'cho', 2.1],
  ['윤', 'yoon', 2.1],
  ['장', 'jang', 2.0],
  ['임', 'lim', 1.7],
  ['한', 'han', 1.5],
  ['오', 'oh', 1.5],
  ['서', 'seo', 1.5],
  ['신', 'shin', 1.4],
  ['권', 'kwon', 1.4],
  ['황', 'hwang', 1.4],
  ['안', 'ahn', 1.3],
  ['송', 'song', 1.3],
  ['류', 'ryu', 1.2],
  ['전', 'jeon', 1.1],
  ['홍', 'hong', 1.1],
  ['고', 'ko', 0.9],
  ['문', 'moon', 0.9],
  ['양', 'yang', 0.9],
  ['손', 'son', 0.9],
  ['배', 'bae', 0.8],
  ['백', 'baek', 0.8],
  ['허', 'heo', 0.6],
  ['유', 'yoo', 0.6],
  ['남', 'nam', 0.5],
  ['심', 'shim', 0.5],
  ['노', 'noh', 0.5],
  ['하', 'ha', 0.4],
  ['곽', 'kwak', 0.4],
  ['성', 'sung', 0.4],
  ['차', 'cha', 0.4],
  ['주', 'joo', 0.4],
  ['우', 'woo', 0.4],
  ['구', 'koo', 0.4],
  ['민', 'min', 0.3],
  ['진', 'jin', 0.3],
  ['나', 'na', 0.3],
  ['지', 'ji', 0.3],
  ['엄', 'eom', 0.3],
  ['채', 'chae', 0.3],
  ['원', 'won', 0.3],
  ['천', 'cheon', 0.2],
  ['방', 'bang', 0.2],
  ['공', 'kong', 0.2],
  ['현', 'hyun', 0.2],
];

/** Given names with their romanization, syllables split by `-` (for initials). */
export const GIVEN_NAMES: readonly (readonly [hangul: string, roman: string])[] = [
  ['민준', 'min-jun'],
  ['서준', 'seo-jun'],
  ['도윤', 'do-yun'],
  ['예준', 'ye-jun'],
  ['시우', 'si-woo'],
  ['하준', 'ha-jun'],
  ['지호', 'ji-ho'],
  ['준서', 'jun-seo'],
  ['준우', 'jun-woo'],
  ['현우', 'hyun-woo'],
  ['지훈', 'ji-hoon'],
  ['성민', 'sung-min'],
  ['동현', 'dong-hyun'],
  ['승현', 'seung-hyun'],
  ['재현', 'jae-hyun'],
  ['민수', 'min-su'],
  ['영수', 'young-su'],
  ['정훈', 'jung-hoon'],
  ['성호', 'sung-ho'],
  ['상훈', 'sang-hoon'],
  ['태현', 'tae-hyun'],
  ['우진', 'woo-jin'],
  ['진우', 'jin-woo'],
  ['건우', 'gun-woo'],
  ['성훈', 'sung-hoon'],
  ['영호', 'young-ho'],
  ['경수', 'kyung-su'],
  ['재원', 'jae-won'],
  ['민호', 'min-ho'],
  ['준혁', 'jun-hyuk'],
  ['형준', 'hyung-jun'],
  ['승우', 'seung-woo'],
  ['대호', 'dae-ho'],
  ['종민', 'jong-min'],
  ['병철', 'byung-chul'],
  ['상민', 'sang-min'],
  ['동욱', 'dong-wook'],
  ['기현', 'ki-hyun'],
  ['세훈', 'se-hoon'],
  ['용준', 'yong-jun'],
  ['광수', 'kwang-su'],
  ['태윤', 'tae-yoon'],
  ['한결', 'han-gyeol'],
  ['규민', 'kyu-min'],
  ['재석', 'jae-seok'],
  ['석진', 'seok-jin'],
  ['호영', 'ho-young'],
  ['창민', 'chang-min'],
  ['서연', 'seo-yeon'],
  ['지우', 'ji-woo'],
  ['서윤', 'seo-yoon'],
  ['민서', 'min-seo'],
  ['하은', 'ha-eun'],
  ['지민', 'ji-min'],
  ['수빈', 'su-bin'],
  ['예린', 'ye-rin'],
  ['지현', 'ji-hyun'],
  ['수진', 'su-jin'],
  ['은지', 'eun-ji'],
  ['혜진', 'hye-jin'],
  ['민지', 'min-ji'],
  ['유진', 'yu-jin'],
  ['지은', 'ji-eun'],
  ['소영', 'so-young'],
  ['미영', 'mi-young'],
  ['은영', 'eun-young'],
  ['현정', 'hyun-jung'],
  ['정은', 'jung-eun'],
  ['수연', 'su-yeon'],
  ['다은', 'da-eun'],
  ['예은', 'ye-eun'],
  ['채원', 'chae-won'],
  ['나연', 'na-yeon'],
  ['보람', 'bo-ram'],
  ['슬기', 'seul-gi'],
  ['아름', 'a-reum'],
  ['혜원', 'hye-won'],
  ['선영', 'sun-young'],
  ['미정', 'mi-jung'],
  ['경희', 'kyung-hee'],
  ['윤정', 'yoon-jung'],
  ['지영', 'ji-young'],
  ['은정', 'eun-jung'],
  ['하늘', 'ha-neul'],
  ['소희', 'so-hee'],
  ['민경', 'min-kyung'],
  ['세영', 'se-young'],
  ['가영', 'ga-young'],
  ['주희', 'ju-hee'],
  ['연경', 'yeon-kyung'],
  ['다인', 'da-in'],
  ['서현', 'seo-hyun'],
  ['유나', 'yu-na'],
  ['혜린', 'hye-rin'],
  ['수아', 'su-ah'],
  ['진영', 'jin-young'],
];

/** First part of company names, with the romanization used in their domains. */
export const COMPANY_PREFIXES: readonly (readonly [hangul: string, roman: string])[] = [
  ['한빛', 'hanbit'],
  ['그린', 'green'],
  ['대성', 'daesung'],
  ['미래', 'mirae'],
  ['새한', 'saehan'],
  ['동방', 'dongbang'],
  ['하나', 'hana'],
  ['청솔', 'cheongsol'],
  ['누리', 'nuri'],
  ['다온', 'daon'],
  ['온누리', 'onnuri'],
  ['세종', 'sejong'],
  ['한결', 'hangyeol'],
  ['바른', 'bareun'],
  ['푸른', 'pureun'],
  ['한울', 'hanul'],
  ['가온', 'gaon'],
  ['미르', 'mir'],
  ['새롬', 'saerom'],
  ['으뜸', 'eutteum'],
  ['하람', 'haram'],
  ['한솔빛', 'hansolbit'],
  ['우리', 'woori'],
  ['제일', 'jeil'],
  ['신화', 'shinhwa'],
  ['한길', 'hangil'],
  ['서해', 'seohae'],
  ['동해', 'donghae'],
  ['남산', 'namsan'],
  ['백두', 'baekdu'],
  ['금강', 'geumgang'],
  ['태백', 'taebaek'],
  ['새빛', 'saebit'],
  ['별빛', 'byeolbit'],
  ['햇살', 'haetsal'],
  ['솔빛', 'solbit'],
  ['해오름', 'haeoreum'],
  ['늘봄', 'neulbom'],
  ['엘림', 'elim'],
  ['에이스', 'ace'],
  ['스마트', 'smart'],
  ['넥스트', 'next'],
  ['블루', 'blue'],
  ['에코', 'eco'],
  ['유니', 'uni'],
  ['퓨처', 'future'],
  ['비전', 'vision'],
  ['큐브', 'cube'],
  ['디지털', 'digital'],
  ['네오', 'neo'],
  ['트루', 'true'],
  ['알파', 'alpha'],
  ['노바', 'nova'],
  ['인터', 'inter'],
  ['대원', 'daewon'],
  ['한국', 'hankook'],
  ['동성', 'dongsung'],
  ['삼우', 'samwoo'],
  ['태광', 'taekwang'],
  ['대영', 'daeyoung'],
  ['성진', 'sungjin'],
  ['우성', 'woosung'],
  ['영진', 'youngjin'],
  ['신성', 'shinsung'],
  ['효성', 'hyosung'],
  ['상아', 'sanga'],
  ['보광', 'bokwang'],
  ['정우', 'jungwoo'],
  ['다솜', 'dasom'],
  ['나래', 'narae'],
  ['온빛', 'onbit'],
  ['하늘', 'haneul'],
  ['바다', 'bada'],
  ['씨앗', 'ssiat'],
  ['모두', 'modu'],
  ['이음', 'ieum'],
  ['아이엠', 'iam'],
  ['케이원', 'kone'],
  ['제이앤', 'jn'],
  ['에스엠', 'sm'],
  ['브라이트', 'bright'],
  ['오션', 'ocean'],
  ['프라임', 'prime'],
  ['코어', 'core'],
  ['리더스', 'leaders'],
  ['위드', 'with'],
  ['루트', 'root'],
  ['포레스트', 'forest'],
  ['라온', 'raon'],
  ['아리', 'ari'],
  ['든든', 'deundeun'],
  ['참빛', 'chambit'],
  ['한마음', 'hanmaum'],
  ['대진', 'daejin'],
  ['서광', 'seokwang'],
  ['동양', 'dongyang'],
  ['새누리', 'saenuri'],
  ['청담', 'cheongdam'],
  ['판교', 'pangyo'],
  ['마포', 'mapo'],
];

/** Second part of company names: the line of business. */
export const COMPANY_CORES: readonly (readonly [
  hangul: string,
  roman: string,
  industry: string,
])[] = [
  ['소프트', 'soft', 'IT/소프트웨어'],
  ['에너지솔루션', 'energy', '제조'],
  ['테크', 'tech', 'IT/소프트웨어'],
  ['테크놀로지', 'technology', 'IT/소프트웨어'],
  ['바이오', 'bio', '의료/헬스케어'],
  ['바이오텍', 'biotech', '의료/헬스케어'],
  ['물산', 'corp', '유통/커머스'],
  ['푸드', 'food', '유통/커머스'],
  ['로지스틱스', 'logistics', '물류'],
  ['건설', 'enc', '건설'],
  ['제약', 'pharm', '의료/헬스케어'],
  ['전자', 'elec', '제조'],
  ['화학', 'chem', '제조'],
  ['네트웍스', 'networks', 'IT/소프트웨어'],
  ['파트너스', 'partners', '금융'],
  ['컨설팅', 'consulting', '전문 서비스'],
  ['디자인', 'design', '미디어/광고'],
  ['엔지니어링', 'eng', '건설'],
  ['모빌리티', 'mobility', '물류'],
  ['헬스케어', 'healthcare', '의료/헬스케어'],
  ['에듀', 'edu', '교육'],
  ['미디어', 'media', '미디어/광고'],
  ['시스템', 'system', 'IT/소프트웨어'],
  ['정보통신', 'ict', 'IT/소프트웨어'],
  ['데이터', 'data', 'IT/소프트웨어'],
  ['커머스', 'commerce', '유통/커머스'],
  ['인더스트리', 'industry', '제조'],
  ['소재', 'materials', '제조'],
  ['기계', 'machinery', '제조'],
  ['산업', 'ind', '제조'],
  ['유통', 'dist', '유통/커머스'],
  ['식품', 'foods', '유통/커머스'],
  ['패션', 'fashion', '유통/커머스'],
  ['코스메틱', 'cosmetic', '유통/커머스'],
  ['인테리어', 'interior', '건설'],
  ['솔루션', 'solution', 'IT/소프트웨어'],
  ['클라우드', 'cloud', 'IT/소프트웨어'],
  ['세미콘', 'semicon', '제조'],
  ['오토', 'auto', '제조'],
  ['메디칼', 'medical', '의료/헬스케어'],
  ['환경', 'env', '제조'],
  ['농산', 'agro', '유통/커머스'],
  ['해운', 'shipping', '물류'],
  ['정밀', 'precision', '제조'],
  ['금속', 'metal', '제조'],
  ['상사', 'trading', '유통/커머스'],
  ['웍스', 'works', '전문 서비스'],
  ['스튜디오', 'studio', '미디어/광고'],
  ['게임즈', 'games', 'IT/소프트웨어'],
  ['랩스', 'labs', 'IT/소프트웨어'],
  ['자산운용', 'am', '금융'],
  ['캐피탈', 'capital', '금융'],
  ['아카데미', 'academy', '교육'],
  ['러닝', 'learning', '교육'],
  ['에프앤비', 'fnb', '유통/커머스'],
  ['하우징', 'housing', '건설'],
  ['세무회계', 'tax', '전문 서비스'],
  ['특허법률', 'ip', '전문 서비스'],
  ['광고', 'ad', '미디어/광고'],
  ['에너지', 'energy', '제조'],
];

/** Optional word after the line of business, with its weight (the empty one dominates). */
export const COMPANY_MODIFIERS: readonly (readonly [
  hangul: string,
  roman: string,
  weight: number,
])[] = [
  ['', '', 70],
  ['코리아', 'korea', 9],
  ['글로벌', 'global', 9],
  ['인터내셔널', 'intl', 6],
  ['앤컴퍼니', 'nco', 6],
];

/** Where the legal form goes in a company name, with its weight. */
export const LEGAL_FORMS: readonly (readonly [before: string, after: string, weight: number])[] = [
  ['(주)', '', 45],
  ['주식회사 ', '', 12],
  ['', ' 주식회사', 4],
  ['', '', 39],
];

/** Companies that open the list, so a small demo still shows familiar-looking names. */
export const FEATURED_COMPANIES: readonly (readonly [
  prefix: string,
  core: string,
  legal: number,
])[] = [
  ['한빛', '소프트', 0],
  ['그린', '에너지솔루션', 3],
  ['누리', '로지스틱스', 0],
  ['세종', '정보통신', 1],
  ['다온', '푸드', 3],
  ['미래', '에듀', 0],
];

/** Cities for branch offices, when company names run out. */
export const REGIONS: readonly string[] = [
  '서울',
  '부산',
  '대구',
  '인천',
  '광주',
  '대전',
  '울산',
  '세종',
  '수원',
  '성남',
  '창원',
  '청주',
  '전주',
  '천안',
  '포항',
  '제주',
];

/** Landline area codes by share; `1588` is a nationwide representative number. */
export const AREA_CODES: readonly (readonly [code: string, weight: number])[] = [
  ['02', 45],
  ['031', 20],
  ['032', 5],
  ['051', 7],
  ['053', 4],
  ['042', 4],
  ['062', 3],
  ['070', 7],
  ['1588', 5],
];

/** Free mail services with their share. */
export const MAIL_SERVICES: readonly (readonly [domain: string, weight: number])[] = [
  ['naver.com', 45],
  ['gmail.com', 33],
  ['daum.net', 10],
  ['hanmail.net', 6],
  ['kakao.com', 6],
];

/** Departments of customer contacts. */
export const DEPARTMENTS: readonly string[] = [
  '영업팀',
  '마케팅팀',
  '구매팀',
  '전략기획팀',
  'IT팀',
  '경영지원팀',
  '인사팀',
  '재무팀',
  '고객지원팀',
  '개발팀',
  '디지털혁신팀',
  '사업개발팀',
  '품질관리팀',
  '운영팀',
];

/** Job titles with their share; executives are shown without a department. */
export const JOB_TITLES: readonly (readonly [title: string, weight: number, executive: boolean])[] =
  [
    ['사원', 5, false],
    ['주임', 5, false],
    ['대리', 14, false],
    ['과장', 16, false],
    ['차장', 10, false],
    ['부장', 9, false],
    ['팀장', 14, false],
    ['실장', 4, false],
    ['매니저', 6, false],
    ['책임', 4, false],
    ['선임', 4, false],
    ['수석', 2, false],
    ['프로', 2, false],
    ['이사', 7, true],
    ['상무', 3, true],
    ['전무', 1, true],
    ['본부장', 3, true],
    ['센터장', 1, true],
    ['대표이사', 3, true],
  ];

/** The title a person held before a promotion (for history rows). */
export const PREVIOUS_TITLE: Readonly<Record<string, string>> = {
  주임: '사원',
  대리: '주임',
  과장: '대리',
  차장: '과장',
  부장: '차장',
  팀장: '과장',
  실장: '팀장',
  책임: '선임',
  수석: '책임',
  이사: '부장',
  상무: '이사',
  전무: '상무',
  본부장: '이사',
};

/** The workspace's own company: the seller of the products below. */
export const SELLER = {
  workspaceName: '누리클라우드 영업본부',
  domain: 'nuricloud.co.kr',
} as const;

/** Users of the workspace: the admin first. */
export const USER_NAMES: readonly (readonly [hangul: string, local: string])[] = [
  ['정다은', 'daeun.jung'],
  ['김태윤', 'taeyoon.kim'],
  ['이수진', 'sujin.lee'],
  ['박준혁', 'junhyuk.park'],
  ['최유나', 'yuna.choi'],
  ['한재석', 'jaeseok.han'],
  ['오민경', 'minkyung.oh'],
  ['윤성호', 'sungho.yoon'],
  ['강혜린', 'hyerin.kang'],
  ['서창민', 'changmin.seo'],
  ['임소희', 'sohee.lim'],
  ['배규민', 'kyumin.bae'],
];

/** Teams of the workspace; the last one looks after existing customers. */
export const TEAM_NAMES: readonly (readonly [name: string, description: string])[] = [
  ['영업1팀', '수도권 신규 고객 영업'],
  ['영업2팀', '지방 및 엔터프라이즈 고객 영업'],
  ['고객성공팀', '계약 갱신과 확장 영업'],
];

/** Deal pipelines and their stages, in order; the last stage is the contract. */
export const DEAL_PIPELINES: readonly (readonly [name: string, stages: readonly string[]])[] = [
  ['신규 영업', ['리드 확보', '미팅', '제안', '협상', '계약']],
  ['재계약', ['갱신 안내', '조건 협의', '견적 발송', '계약 갱신']],
  ['엔터프라이즈', ['니즈 파악', '데모', '기술 검토', '제안', '협상', '계약']],
];

/** Lead pipelines and their stages. */
export const LEAD_PIPELINES: readonly (readonly [name: string, stages: readonly string[]])[] = [
  ['인바운드 리드', ['신규 유입', '연락 시도', '자격 검증', '전환 대기']],
  ['아웃바운드 리드', ['타깃 선정', '첫 연락', '관심 확인']],
];

/** Products: `유형`, name, code, price (KRW), unit, `카테고리`. */
export const PRODUCTS: readonly (readonly [
  kind: '일반' | '구독 (월간)' | '구독 (연간)',
  name: string,
  code: string,
  price: number,
  unit: string,
  category: string,
])[] = [
  ['구독 (월간)', 'CRM 스탠다드 (월간)', 'CRM-STD-M', 29_000, '사용자', '소프트웨어'],
  ['구독 (월간)', 'CRM 프로 (월간)', 'CRM-PRO-M', 49_000, '사용자', '소프트웨어'],
  ['구독 (월간)', 'CRM 엔터프라이즈 (월간)', 'CRM-ENT-M', 89_000, '사용자', '소프트웨어'],
  ['구독 (연간)', 'CRM 스탠다드 (연간)', 'CRM-STD-Y', 290_000, '사용자', '소프트웨어'],
  ['구독 (연간)', 'CRM 프로 (연간)', 'CRM-PRO-Y', 490_000, '사용자', '소프트웨어'],
  ['구독 (연간)', 'CRM 엔터프라이즈 (연간)', 'CRM-ENT-Y', 890_000, '사용자', '소프트웨어'],
  [
    '구독 (월간)',
    '마케팅 자동화 애드온 (월간)',
    'ADD-MKT-M',
    150_000,
    '워크스페이스',
    '소프트웨어',
  ],
  [
    '구독 (연간)',
    '마케팅 자동화 애드온 (연간)',
    'ADD-MKT-Y',
    1_500_000,
    '워크스페이스',
    '소프트웨어',
  ],
  ['구독 (월간)', '고객 지원 데스크 (월간)', 'ADD-DESK-M', 19_000, '사용자', '소프트웨어'],
  ['구독 (월간)', '추가 저장공간 100GB (월간)', 'ADD-STORAGE-M', 10_000, '개', '소프트웨어'],
  ['구독 (월간)', '카카오 알림톡 1,000건 (월간)', 'ADD-KAKAO-M', 9_000, '묶음', '소프트웨어'],
  ['구독 (월간)', '문자 발송 2,000건 (월간)', 'ADD-SMS-M', 30_000, '묶음', '소프트웨어'],
  ['구독 (월간)', '통화 녹음 연동 (월간)', 'ADD-CALL-M', 15_000, '사용자', '소프트웨어'],
  ['구독 (연간)', '분석 리포트 팩 (연간)', 'ADD-BI-Y', 1_200_000, '워크스페이스', '소프트웨어'],
  ['구독 (연간)', 'API 연동 패키지 (연간)', 'ADD-API-Y', 2_400_000, '워크스페이스', '소프트웨어'],
  [
    '구독 (연간)',
    '보안 강화 옵션 SSO·감사 로그 (연간)',
    'ADD-SEC-Y',
    3_000_000,
    '워크스페이스',
    '소프트웨어',
  ],
  ['구독 (연간)', '프리미엄 기술지원 (연간)', 'SUP-PREMIUM-Y', 4_800_000, '워크스페이스', '서비스'],
  ['구독 (연간)', '전담 고객성공 매니저 (연간)', 'SUP-CSM-Y', 12_000_000, '워크스페이스', '서비스'],
  ['일반', 'CRM 도입 컨설팅', 'SVC-CONSULT', 1_500_000, '회', '서비스'],
  ['일반', '데이터 마이그레이션', 'SVC-MIGRATION', 2_000_000, '건', '서비스'],
  ['일반', '외부 시스템 연동 구축', 'SVC-INTEGRATION', 3_500_000, '건', '서비스'],
  ['일반', '맞춤 개발 (1MD)', 'SVC-CUSTOM-MD', 750_000, 'MD', '서비스'],
  ['일반', '온보딩 패키지', 'SVC-ONBOARD', 900_000, '식', '서비스'],
  ['일반', '사용자 교육 (4시간)', 'EDU-BASIC-4H', 600_000, '회', '교육'],
  ['일반', '관리자 심화 교육 (8시간)', 'EDU-ADMIN-8H', 1_100_000, '회', '교육'],
  ['일반', '영업 관리자 워크숍', 'EDU-WORKSHOP', 2_200_000, '회', '교육'],
  ['일반', '바코드 스캐너', 'HW-SCANNER', 180_000, '대', '하드웨어'],
  ['일반', '태블릿 단말기 (10인치)', 'HW-TABLET-10', 450_000, '대', '하드웨어'],
  ['일반', '명함 스캐너', 'HW-CARD-SCANNER', 320_000, '대', '하드웨어'],
  ['일반', '전용 서버 설치', 'HW-SETUP', 1_200_000, '식', '하드웨어'],
];

/** Select options of the custom fields. */
export const FIELD_OPTIONS = {
  customerGrade: ['VIP', '일반', '잠재'],
  interests: ['CRM', '마케팅 자동화', '고객 지원', '분석 리포트', '모바일 앱', 'API 연동'],
  industries: [
    'IT/소프트웨어',
    '제조',
    '유통/커머스',
    '금융',
    '교육',
    '의료/헬스케어',
    '건설',
    '물류',
    '미디어/광고',
    '전문 서비스',
  ],
  contractTypes: ['신규', '갱신', '업셀', '크로스셀'],
  productCategories: ['소프트웨어', '서비스', '교육', '하드웨어'],
  todoPriorities: ['높음', '보통', '낮음'],
} as const;

/** Values of the lead field `유입 경로`. */
export const LEAD_CHANNELS: readonly string[] = [
  '홈페이지 문의',
  '네이버 검색광고',
  '구글 검색광고',
  '웨비나',
  '지인 소개',
  '전시회',
  '블로그',
  '유튜브',
  '콜드메일',
  '파트너사 추천',
];

/** Values of the quote field `할인 사유`. */
export const DISCOUNT_REASONS: readonly string[] = [
  '연간 선결제 할인',
  '다년 계약 조건',
  '경쟁사 전환 프로모션',
  '기존 고객 단가 유지',
  '스타트업 지원 프로그램',
  '분기 마감 특별 할인',
];

/** Values of the quote-product field `비고`. */
export const LINE_REMARKS: readonly string[] = [
  '부가세 별도',
  '교육 1회 무상 포함',
  '기존 단가 유지',
  '사용자 수 증감 시 월할 정산',
  '설치비 면제',
  '납품 후 2주 내 검수',
];

/** Deal names by pipeline index; `{org}` is the customer, `{product}` a plan. */
export const DEAL_NAME_TEMPLATES: readonly (readonly string[])[] = [
  [
    '{org} {product} 도입',
    '{org} 영업팀 CRM 도입',
    '{org} {product} {n}석',
    '{org} 고객관리 시스템 교체',
  ],
  ['{org} 연간 계약 갱신', '{org} 재계약 및 사용자 추가', '{org} {product} 갱신'],
  ['{org} 전사 CRM 구축', '{org} {product} 전사 확대', '{org} 영업 데이터 통합 프로젝트'],
];

/** Lead names; `{org}` is the company (or the person, without one). */
export const LEAD_NAME_TEMPLATES: readonly string[] = [
  '{org} 도입 문의',
  '{org} 무료 체험 신청',
  '{org} 웨비나 참석',
  '{org} {product} 문의',
  '{org} 가격 문의',
  '{org} 소개 자료 요청',
];

/** Note texts by the record type they are written on. */
export const NOTE_TEXTS = {
  people: [
    '{name} {title}님과 첫 통화. 현재 엑셀과 메신저로 고객을 관리하고 있어 이력 관리가 어렵다고 함. 다음 주 데모 일정 조율 예정.',
    '세미나 현장에서 명함 교환. {product}에 관심이 많고, 도입 여부는 상반기 예산 확정 후 결정한다고 함.',
    '이메일 회신 받음. 지금 쓰는 솔루션 계약이 {month}월에 끝나서 비교 자료를 요청함.',
    '통화 부재. 문자 남겨 두었고 내일 오전에 다시 연락하기로 함.',
    '의사결정은 {title}님이 아니라 본부장님이 하신다고 함. 다음 미팅에 함께 참석해 주시도록 요청.',
    '{dept}로 부서 이동하셨다고 함. 기존 업무 후임자 연락처 확인 필요.',
    '기존 고객사 담당자 소개로 연락함. 같은 업종 레퍼런스 사례 자료를 보내 달라고 하심.',
    '가격보다는 도입 후 교육과 기술 지원을 중요하게 보심. 온보딩 일정 안내 자료 전달함.',
    '점심 미팅. 내부적으로 영업팀 {n}명이 먼저 써 보는 방향으로 검토 중이라고 함.',
    '출장 중이라 다음 주 화요일 이후 통화 가능하다고 회신 옴.',
    '{title}님 요청으로 모바일 앱 사용 가이드 PDF 전달함.',
    '만족도 설문 응답: 고객 이력 검색이 빨라졌다는 의견. 대시보드 기능 추가 요청 있음.',
  ],
  organization: [
    '본사 방문 미팅. 영업 조직이 {n}명 규모이고 지역별로 고객 데이터가 흩어져 있음.',
    '연간 IT 예산 편성이 {month}월이라 그 전에 제안서를 전달해야 함.',
    '작년에 다른 CRM을 도입했다가 정착에 실패한 경험이 있음. 교육 지원을 강조할 것.',
    '구매팀 통해 협력사 등록 절차 진행 중. 사업자등록증과 통장 사본 요청 받음.',
    '보안 심사 체크리스트 받음. 개인정보 처리 방침과 데이터 보관 위치 답변 필요.',
    '재무팀에서 세금계산서 발행용 이메일 주소 변경 요청.',
    '계열사 두 곳도 같은 시스템 도입을 검토 중. 그룹 단위 제안 가능성 있음.',
    '대표 번호로 연락 시 {dept} 연결 요청하면 됨. 담당자 직통 번호는 비공개.',
    '분기 리뷰 미팅 진행. 사용률이 높은 팀은 영업팀, 낮은 팀은 고객지원팀.',
  ],
  deal: [
    '데모 진행. 파이프라인 화면과 모바일 앱 반응이 좋았음. 엑셀 데이터 이관 방법에 대한 질문이 많았음.',
    '제안서 발송. {product} 기준 {n}석으로 견적 작성했고 연간 결제 할인 조건 포함.',
    '가격 협상 중. 경쟁사보다 10% 정도 비싸다는 의견. 교육 1회 무상 제공으로 조율 제안.',
    '법무팀 계약서 검토 회신 대기. 개인정보 처리 위탁 조항 수정 요청 있음.',
    '예산이 내년으로 밀리면서 이번 분기 진행은 어렵다고 함. 분기 말에 다시 연락하기로 함.',
    '기술 검토 미팅. API 호출 한도와 SSO 지원 여부 확인함. 다음 미팅에 엔지니어 동행 필요.',
    '실무자 테스트 계정 {n}개 발급. 2주간 체험 후 피드백 받기로 함.',
    '결재 라인 최종 승인만 남음. 이번 주 금요일까지 발주서 받을 예정.',
    '{name} {title}님이 내부 보고용 도입 효과 자료를 요청함. 고객 사례 2건 정리해서 전달.',
    '경쟁 PT 일정 확정. 발표는 {user} 매니저가 맡기로 함.',
    '갱신 안내 메일 발송. 사용자 수가 늘어 상위 요금제 전환을 제안함.',
  ],
  dealWon: [
    '계약 체결 완료. {month}월 1일부터 사용 시작, 킥오프 미팅 일정 잡을 것.',
    '발주서 수령. 세금계산서는 월말 일괄 발행으로 요청 받음.',
    '계약서 날인본 회수 완료. 온보딩 담당자에게 인계함.',
  ],
  dealLost: [
    '경쟁사 솔루션으로 결정했다고 통보 받음. 가격과 기존 ERP 연동이 주요 사유.',
    '내부 개발로 방향을 틀었다고 함. 6개월 뒤 상황 확인하기로 함.',
    '담당 임원 교체로 프로젝트 자체가 보류됨.',
  ],
  lead: [
    '홈페이지 문의로 유입. 영업팀 {n}명 규모, 무료 체험 희망.',
    '웨비나 참석자. 질의응답에서 자동화 기능을 질문함. 후속 메일 발송.',
    '전화 연결 안 됨. 이메일로 소개 자료 발송함.',
    '아직 정보 수집 단계. 구체적인 도입 일정은 없다고 함. 뉴스레터로 관리.',
    '예산과 일정이 확인되어 영업 담당자에게 전달함.',
    '같은 회사에서 들어온 문의가 있어 기존 담당자와 내용 공유함.',
    '{product} 가격표 요청. 요금제 비교표와 함께 회신.',
  ],
  product: [
    '다음 분기부터 정가 5% 인상 예정. 기존 고객은 갱신 시점까지 현재 가격 유지.',
    '연간 결제 시 2개월 무료 프로모션 적용 가능 (이번 분기 한정).',
    '교육은 최대 15명까지 1회로 진행. 인원 초과 시 회차 추가.',
    '신규 기능(명함 인식) 반영해서 상품 설명 문구 업데이트함.',
    '재고 {n}대 남음. 추가 입고는 다음 달 둘째 주 예정.',
  ],
  quote: [
    '고객 요청으로 사용자 수를 조정한 수정본.',
    '연간 결제 기준 10% 할인 반영. 유효 기간 30일.',
    '구매팀 전달용 최종 견적. 부가세 별도 표기 확인함.',
    '교육 1회 무상 제공 조건 추가.',
    '세금계산서 발행 일정과 결제 조건(익월 말) 명시 요청 받음.',
  ],
} as const;

/** Todo titles and kinds (`유형`) by the record type they are on. */
export const TODO_TEXTS: Readonly<
  Record<
    'people' | 'organization' | 'deal' | 'lead',
    readonly (readonly [title: string, kind: string])[]
  >
> = {
  deal: [
    ['견적서 발송', '이메일'],
    ['데모 일정 확정', '전화'],
    ['제안서 최종본 전달', '이메일'],
    ['계약서 날인본 회수', '할 일'],
    ['후속 미팅 준비', '미팅'],
    ['할인 조건 내부 승인 받기', '할 일'],
    ['기술 검토 자료 전달', '이메일'],
    ['의사결정권자 미팅 요청', '미팅'],
    ['킥오프 미팅 일정 조율', '미팅'],
    ['발주서 수령 확인', '전화'],
  ],
  lead: [
    ['첫 연락하기', '전화'],
    ['소개 자료 메일 발송', '이메일'],
    ['니즈 확인 통화', '전화'],
    ['무료 체험 계정 안내', '이메일'],
    ['웨비나 참석 감사 메일', '이메일'],
    ['예산 및 도입 시기 확인', '전화'],
  ],
  people: [
    ['안부 전화', '전화'],
    ['생일 축하 메시지 보내기', '할 일'],
    ['명함 정보 업데이트', '할 일'],
    ['추천해 주신 데 대한 감사 인사', '이메일'],
    ['점심 약속 잡기', '점심'],
    ['만족도 설문 요청', '이메일'],
  ],
  organization: [
    ['협력사 등록 서류 제출', '할 일'],
    ['세금계산서 발행 정보 확인', '이메일'],
    ['보안 심사 체크리스트 회신', '이메일'],
    ['분기 리뷰 미팅 준비', '미팅'],
    ['계약 갱신 안내', '전화'],
    ['담당자 변경 확인', '전화'],
  ],
};

/** Web forms: name, description and the question of their free-text field. */
export const WEB_FORMS: readonly (readonly [
  name: string,
  description: string,
  question: string,
])[] = [
  ['제품 도입 문의', '홈페이지 도입 문의 양식', '문의 내용'],
  ['무료 체험 신청', '14일 무료 체험 신청 양식', '사용 목적'],
  ['웨비나 사전 등록 - 영업 생산성을 높이는 CRM 활용법', '월간 웨비나 참가 신청', '궁금한 점'],
  ['가격 견적 요청', '요금제 견적 요청 양식', '예상 사용자 수와 요청 사항'],
  ['파트너 제휴 문의', '리셀러·연동 파트너 제휴 문의', '제휴 제안 내용'],
  ['고객 지원 요청', '기존 고객 기술 지원 요청', '요청 내용'],
];

/** Answers to the free-text question of web forms. */
export const FORM_ANSWERS: readonly string[] = [
  '영업팀 고객 관리를 엑셀에서 CRM으로 옮기려고 합니다. 도입 비용과 기간이 궁금합니다.',
  '현재 쓰는 솔루션과 데이터 연동이 가능한지 알고 싶습니다.',
  '다음 달 중 도입 예정이라 빠른 상담 부탁드립니다.',
  '모바일에서 고객 정보를 조회하고 수정할 수 있나요?',
  '카카오 알림톡 연동이 되는지 궁금합니다.',
  '20명 정도 사용할 예정입니다. 견적 부탁드립니다.',
  '교육 지원 범위와 기술 지원 방식이 궁금합니다.',
  '파이프라인 단계를 회사 프로세스에 맞게 바꿀 수 있나요?',
  '무료 체험 후 데이터가 그대로 유지되는지 궁금합니다.',
  '보안 인증(ISMS) 여부를 알려 주세요.',
];

/** Sequences (automated e-mail campaigns). */
export const SEQUENCE_NAMES: readonly string[] = [
  '신규 리드 웰컴 메일 (5단계)',
  '무료 체험 전환 유도',
  '웨비나 참석자 후속 안내',
  '휴면 고객 재활성화',
  '계약 만료 60일 전 갱신 안내',
];

/** The description of each of `SEQUENCE_NAMES`, in its order. */
export const SEQUENCE_DESCRIPTIONS: readonly string[] = [
  '문의를 남긴 신규 리드에게 회사 소개, 도입 사례, 데모 안내를 차례로 보냅니다.',
  '무료 체험 중인 고객에게 활용 팁과 유료 전환 혜택을 안내합니다.',
  '웨비나 참석자에게 발표 자료와 상담 신청 링크를 보냅니다.',
  '90일 이상 연락이 없던 고객에게 새 기능 소식과 재상담을 제안합니다.',
  '계약 만료 60일 전부터 갱신 조건과 담당자 미팅을 안내합니다.',
];

/** Links the demo's sequence e-mails carry: where a click leads, and its text. */
export const SEQUENCE_LINKS: readonly { url: string; name: string }[] = [
  { url: 'https://www.example.com/pricing', name: '요금제 보기' },
  { url: 'https://www.example.com/demo', name: '데모 신청하기' },
  { url: 'https://www.example.com/cases', name: '도입 사례 보기' },
  { url: 'https://www.example.com/webinar/slides', name: '발표 자료 내려받기' },
];

/** Why a person unsubscribed from e-mails. */
export const UNSUBSCRIBE_REASONS: readonly string[] = [
  '더 이상 관심 없음',
  '메일을 너무 자주 받음',
  '퇴사로 인한 수신 거부',
  '개인정보 삭제 요청',
];

/**
 * E-mails behind the `email` activities: a subject and paragraphs of the body. `sales` ones
 * go from a record's owner to its person about the deal or lead; `newsletter` ones to people
 * and organizations outside any. `{name}` and `{title}` are the recipient's, `{org}` their
 * company, `{user}` the sender, `{record}` the deal or lead.
 */
export const EMAIL_TEXTS: Record<
  'sales' | 'newsletter',
  readonly { subject: string; body: readonly string[] }[]
> = {
  sales: [
    {
      subject: '[누리클라우드] {record} 제안서 송부드립니다',
      body: [
        '{name} {title}님, 안녕하세요. 누리클라우드 {user}입니다.',
        '지난 미팅에서 말씀 나눈 내용을 바탕으로 {product} 도입 제안서를 정리해 보내 드립니다.',
        '검토하시고 궁금하신 점이 있으면 편하게 회신 부탁드립니다. 감사합니다.',
      ],
    },
    {
      subject: '{org} 미팅 일정 확인 부탁드립니다',
      body: [
        '{name} {title}님, 안녕하세요.',
        '다음 주 {product} 데모 미팅 일정을 조율하고자 연락드립니다. 가능하신 시간을 두세 개 알려 주시면 맞추겠습니다.',
        '누리클라우드 {user} 드림',
      ],
    },
    {
      subject: 'Re: {record} 견적 문의',
      body: [
        '{name} {title}님, 문의 주셔서 감사합니다.',
        '요청하신 {product} 견적서를 첨부 링크로 공유드립니다. 사용자 {n}명 기준이며, 연간 계약 시 할인이 적용됩니다.',
        '추가로 필요하신 자료가 있으면 말씀해 주세요. {user} 드림',
      ],
    },
    {
      subject: '[누리클라우드] 후속 자료 공유드립니다',
      body: [
        '{name} {title}님, 오늘 시간 내 주셔서 감사합니다.',
        '미팅 중 말씀드린 도입 사례와 {product} 기능 비교표를 공유드립니다.',
        '{org} 내부 검토에 도움이 되길 바랍니다. {user} 드림',
      ],
    },
  ],
  newsletter: [
    {
      subject: '[누리클라우드] {month}월 뉴스레터: 영업 파이프라인 관리 팁',
      body: [
        '{name}님, 안녕하세요. 누리클라우드입니다.',
        '이번 달에는 정체된 딜을 빨리 찾아내는 세 가지 방법과 새로 나온 {product} 기능을 소개합니다.',
        '더 이상 받지 않으시려면 이 메일에 회신해 주세요.',
      ],
    },
    {
      subject: '웨비나 초대: 데이터로 움직이는 B2B 영업',
      body: [
        '{name}님, 안녕하세요.',
        '{month}월 셋째 주 목요일 오후 4시에 B2B 영업팀을 위한 온라인 웨비나를 엽니다. {product} 고객사의 실제 사례를 나눕니다.',
        '아래 링크에서 신청하실 수 있습니다. 누리클라우드 {user} 드림',
      ],
    },
    {
      subject: '[누리클라우드] 고객 사례집을 보내 드립니다',
      body: [
        '{name}님, 안녕하세요.',
        '제조, 유통, IT 서비스 업계 고객 {n}곳이 {product}로 영업 방식을 바꾼 이야기를 모았습니다.',
        '궁금하신 점은 언제든 회신 주세요. 누리클라우드 드림',
      ],
    },
  ],
};

/** Notes written on todos (`{title}` is the todo's). */
export const TODO_NOTE_TEXTS: readonly string[] = [
  '{title} 전에 지난 통화 내용 다시 확인할 것.',
  '담당자 휴가로 {title} 일정이 다음 주로 밀릴 수 있음.',
  '{title}: 준비 자료 공유 드라이브에 올려 둠.',
  '고객 요청으로 {title} 시간 변경, 캘린더 반영 완료.',
];

/** Replies to notes on deals and leads, by a colleague. */
export const NOTE_REPLY_TEXTS: readonly string[] = [
  '확인했습니다. 견적 조건은 제가 한 번 더 검토할게요.',
  '좋습니다. 다음 미팅에 저도 같이 들어가겠습니다.',
  '법무 검토는 이번 주 안에 끝날 예정입니다.',
  '이 건은 지난 분기 비슷한 사례가 있어 자료 공유드릴게요.',
];

/** What a recorded meeting is called, after the deal's or lead's name. */
export const RECORDING_TITLES: readonly string[] = [
  '도입 상담 통화',
  '요구사항 확인 미팅',
  '데모 시연 미팅',
  '견적 협의 통화',
  '계약 조건 논의',
];

/** The summaries a recording keeps of its meeting. */
export const RECORDING_SUMMARIES: readonly string[] = [
  '도입 일정과 예산을 확인함. 다음 주 데모 약속.',
  '현재 쓰는 솔루션의 불편한 점을 들음. 연동 범위 자료를 보내기로 함.',
  '데모 후 실무진 반응이 좋음. 결재 라인에 올릴 견적서 요청.',
  '할인 조건을 두고 논의. 연간 계약 시 조건을 다시 제안하기로 함.',
  '보안 심사 항목을 확인함. 체크리스트 회신 기한은 이번 주 금요일.',
];

/** Lines of a recorded meeting: who speaks (the seller or the customer), and what. */
export const RECORDING_LINES: readonly (readonly ['seller' | 'customer', string])[] = [
  ['seller', '안녕하세요, 지난번 문의 주신 건으로 연락드렸습니다.'],
  ['customer', '네, 도입 일정부터 여쭤봐도 될까요?'],
  ['seller', '계약하시면 2주 안에 세팅을 마칠 수 있습니다.'],
  ['customer', '기존 데이터를 옮기는 데는 얼마나 걸릴까요?'],
  ['seller', '엑셀로 주시면 저희가 가져오기를 도와드립니다.'],
  ['customer', '예산은 이번 분기 안에 확정될 것 같습니다.'],
  ['seller', '견적서는 오늘 중으로 메일로 보내 드리겠습니다.'],
  ['customer', '내부 검토 후에 다시 연락드리겠습니다.'],
];
