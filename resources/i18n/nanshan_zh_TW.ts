<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW" sourcelanguage="zh_CN">
    <context>
        <name>AboutDialog</name>
        <message>
            <source>南山问律</source>
            <translation>南山問律</translation>
        </message>
        <message>
            <source>离线研读律典的工具：以《四分律》为中心，兼收四律五论，以及道宣律师的南山三大部与元照律师的诸记，都依 CBETA 所收原文。用白话提问，程序按律本、道宣、元照三层列出原文，每处引文都回到原文逐字核对，并附坐标。</source>
            <translation>離線研讀律典的工具：以《四分律》為中心，兼收四律五論，以及道宣律師的南山三大部與元照律師的諸記，都依 CBETA 所收原文。用白話提問，程式按律本、道宣、元照三層列出原文，每處引文都回到原文逐字核對，並附座標。</translation>
        </message>
        <message>
            <source>戒相、戒体、羯磨、僧制与律史。</source>
            <translation>戒相、戒體、羯磨、僧制與律史。</translation>
        </message>
        <message>
            <source>本程序只引述、检索典籍原文，不对任何人的行为作出裁定：某人、某寺是否持戒、是否如法，须了解实际情形，并请教有德行、通律学的师长，不是引文本身所能断定的。</source>
            <translation>本程式只引述、檢索典籍原文，不對任何人的行為作出裁定：某人、某寺是否持戒、是否如法，須瞭解實際情形，並請教有德行、通律學的師長，不是引文本身所能斷定的。</translation>
        </message>
        <message>
            <source>编造或改写引文</source>
            <translation>編造或改寫引文</translation>
        </message>
        <message>
            <source>评判具体寺院或个人</source>
            <translation>評判具體寺院或個人</translation>
        </message>
        <message>
            <source>医疗建议</source>
            <translation>醫療建議</translation>
        </message>
        <message>
            <source>法律与税务建议</source>
            <translation>法律與稅務建議</translation>
        </message>
        <message>
            <source>理财与投资建议</source>
            <translation>理財與投資建議</translation>
        </message>
        <message>
            <source>律学以外的教理与玄学</source>
            <translation>律學以外的教理與玄學</translation>
        </message>
        <message>
            <source>占卜算命</source>
            <translation>占卜算命</translation>
        </message>
        <message>
            <source>版本 {version}</source>
            <translation>版本 {version}</translation>
        </message>
        <message>
            <source>只回答律学问题：{covers}不做这些事：{kinds}。遇到这类问题，程序说明不作回答，并指出可以怎样就律典本身提问。</source>
            <translation>只回答律學問題：{covers}不做這些事：{kinds}。遇到這類問題，程式說明不作回答，並指出可以怎樣就律典本身提問。</translation>
        </message>
        <message>
            <source>原文出自 {distributor}：{edition}。</source>
            <translation>原文出自 {distributor}：{edition}。</translation>
        </message>
        <message>
            <source>原文出自 {distributor}。</source>
            <translation>原文出自 {distributor}。</translation>
        </message>
        <message>
            <source>语料包：{path}</source>
            <translation>語料包：{path}</translation>
        </message>
        <message>
            <source>范围</source>
            <translation>範圍</translation>
        </message>
        <message>
            <source>声明</source>
            <translation>聲明</translation>
        </message>
        <message>
            <source>原文与授权</source>
            <translation>原文與授權</translation>
        </message>
        <message>
            <source>关于南山问律</source>
            <translation>關於南山問律</translation>
        </message>
        <message>
            <source>关闭</source>
            <translation>關閉</translation>
        </message>
    </context>
    <context>
        <name>BookmarksDock</name>
        <message>
            <source>书签</source>
            <translation>書籤</translation>
        </message>
        <message>
            <source>坐标</source>
            <translation>座標</translation>
        </message>
        <message>
            <source>备注（双击编辑）</source>
            <translation>備註（雙擊編輯）</translation>
        </message>
        <message>
            <source>原文</source>
            <translation>原文</translation>
        </message>
        <message>
            <source>打开</source>
            <translation>開啟</translation>
        </message>
        <message>
            <source>删除</source>
            <translation>刪除</translation>
        </message>
        <message>
            <source>另存…</source>
            <translation>另存…</translation>
        </message>
        <message>
            <source>把书签、备注与提问历史另存到您选的文件（数据目录无法写入时用）</source>
            <translation>把書籤、備註與提問歷史另存到您選的檔案（資料目錄無法寫入時用）</translation>
        </message>
        <message>
            <source>未能另存到 {path}（{exc}）。请换一个位置。</source>
            <translation>未能另存到 {path}（{exc}）。請換一個位置。</translation>
        </message>
        <message>
            <source>另存书签与历史</source>
            <translation>另存書籤與歷史</translation>
        </message>
        <message>
            <source>南山问律-书签与历史.json</source>
            <translation>南山問律-書籤與歷史.json</translation>
        </message>
        <message>
            <source>双击打开；添加于 {created}</source>
            <translation>雙擊開啟；添加於 {created}</translation>
        </message>
        <message>
            <source>备注未能保存（{exc}）。备注仍在书签栏中；可点「另存…」存到其他位置，或检查磁盘后再编辑一次。</source>
            <translation>備註未能儲存（{exc}）。備註仍在書籤欄中；可點「另存…」存到其他位置，或檢查磁碟後再編輯一次。</translation>
        </message>
        <message>
            <source>书签未能删除（{exc}）。</source>
            <translation>書籤未能刪除（{exc}）。</translation>
        </message>
    </context>
    <context>
        <name>Chip</name>
        <message>
            <source>去掉{term}</source>
            <translation>去掉{term}</translation>
        </message>
        <message>
            <source>{term}来自{source}</source>
            <translation>{term}來自{source}</translation>
        </message>
    </context>
    <context>
        <name>DoctorDialog</name>
        <message>
            <source>检查环境</source>
            <translation>檢查環境</translation>
        </message>
        <message>
            <source>正在检查语料包、模型运行库与用户数据…</source>
            <translation>正在檢查語料包、模型執行庫與使用者資料…</translation>
        </message>
        <message>
            <source>关闭</source>
            <translation>關閉</translation>
        </message>
        <message>
            <source>复制报告</source>
            <translation>複製報告</translation>
        </message>
        <message>
            <source>检查未能完成：{msg}</source>
            <translation>檢查未能完成：{msg}</translation>
        </message>
    </context>
    <context>
        <name>FeedbackController</name>
        <message>
            <source>这条反馈对应的答案已不在屏幕上，未记录。</source>
            <translation>這條回饋對應的答案已不在螢幕上，未記錄。</translation>
        </message>
        <message>
            <source>无法保存反馈（{exc}）。请检查磁盘后再点一次。</source>
            <translation>無法儲存回饋（{exc}）。請檢查磁碟後再點一次。</translation>
        </message>
        <message>
            <source>已记下 {what}（此前已记下，不重复计数）</source>
            <translation>已記下 {what}（此前已記下，不重複計數）</translation>
        </message>
        <message>
            <source>已记下 {what}（只存在本机；文件 → 导出反馈… 可导出）</source>
            <translation>已記下 {what}（只存在本機；檔案 → 匯出回饋… 可匯出）</translation>
        </message>
        <message>
            <source>附注已保存：{what}</source>
            <translation>附註已儲存：{what}</translation>
        </message>
        <message>
            <source>已记下 {what}（无附注）</source>
            <translation>已記下 {what}（無附註）</translation>
        </message>
        <message>
            <source>还没有反馈可导出：在答案的引文或材料卡片上点「有帮助」「不相关」「出处有误」即可记下。</source>
            <translation>還沒有回饋可匯出：在答案的引文或材料卡片上點「有幫助」「不相關」「出處有誤」即可記下。</translation>
        </message>
        <message>
            <source>无法写入 {path}（{exc}）</source>
            <translation>無法寫入 {path}（{exc}）</translation>
        </message>
        <message>
            <source>已导出 {n} 条反馈：{path}</source>
            <translation>已匯出 {n} 條回饋：{path}</translation>
        </message>
        <message>
            <source>南山问律反馈-{date}.jsonl</source>
            <translation>南山問律回饋-{date}.jsonl</translation>
        </message>
        <message>
            <source>导出反馈</source>
            <translation>匯出回饋</translation>
        </message>
        <message>
            <source>JSON Lines (*.jsonl);;所有文件 (*)</source>
            <translation>JSON Lines (*.jsonl);;所有檔案 (*)</translation>
        </message>
    </context>
    <context>
        <name>FirstRunDialog</name>
        <message>
            <source>读取 XML</source>
            <translation>讀取 XML</translation>
        </message>
        <message>
            <source>写入行表</source>
            <translation>寫入行表</translation>
        </message>
        <message>
            <source>建立索引</source>
            <translation>建立索引</translation>
        </message>
        <message>
            <source>没有找到 CBETA 目录。请点「选择文件夹…」指定 CBETA TEI P5 的根目录（其中有 T、X 子目录）。</source>
            <translation>沒有找到 CBETA 目錄。請點「選擇資料夾…」指定 CBETA TEI P5 的根目錄（其中有 T、X 子目錄）。</translation>
        </message>
        <message>
            <source>CBETA 目录不存在：{folder}</source>
            <translation>CBETA 目錄不存在：{folder}</translation>
        </message>
        <message>
            <source>{folder} 不像 CBETA TEI P5 目录：其中应有 T 或 X 子目录（如 T/T22/T22n1428_001.xml）。</source>
            <translation>{folder} 不像 CBETA TEI P5 目錄：其中應有 T 或 X 子目錄（如 T/T22/T22n1428_001.xml）。</translation>
        </message>
        <message>
            <source>南山问律 · 生成语料包</source>
            <translation>南山問律 · 生成語料包</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;还没有语料包。&lt;/b&gt;南山问律只从 CBETA 原典作答，需要先把 CBETA 的 XML 文件整理成语料包（约 2 分钟，只需一次）。&lt;/p&gt;&lt;p&gt;&lt;small&gt;原因：{reason}&lt;/small&gt;&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;還沒有語料包。&lt;/b&gt;南山問律只從 CBETA 原典作答，需要先把 CBETA 的 XML 檔案整理成語料包（約 2 分鐘，只需一次）。&lt;/p&gt;&lt;p&gt;&lt;small&gt;原因：{reason}&lt;/small&gt;&lt;/p&gt;</translation>
        </message>
        <message>
            <source>语料包将生成到：{path}</source>
            <translation>語料包將生成到：{path}</translation>
        </message>
        <message>
            <source>选择文件夹…</source>
            <translation>選擇資料夾…</translation>
        </message>
        <message>
            <source>开始生成</source>
            <translation>開始生成</translation>
        </message>
        <message>
            <source>取消</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>CBETA 目录：{path}</source>
            <translation>CBETA 目錄：{path}</translation>
        </message>
        <message>
            <source>CBETA 目录：未找到（可设置 NANSHAN_CBETA_DIR，或选择文件夹）</source>
            <translation>CBETA 目錄：未找到（可設定 NANSHAN_CBETA_DIR，或選擇資料夾）</translation>
        </message>
        <message>
            <source>选择 CBETA TEI P5 根目录（含 T、X 子目录）</source>
            <translation>選擇 CBETA TEI P5 根目錄（含 T、X 子目錄）</translation>
        </message>
        <message>
            <source>已取消生成语料包，没有留下不完整的文件。</source>
            <translation>已取消生成語料包，沒有留下不完整的檔案。</translation>
        </message>
        <message>
            <source>正在准备常用词检索表……</source>
            <translation>正在準備常用詞檢索表……</translation>
        </message>
        <message>
            <source>CBETA 目录有问题：{message}</source>
            <translation>CBETA 目錄有問題：{message}</translation>
        </message>
        <message>
            <source>正在取消…</source>
            <translation>正在取消…</translation>
        </message>
    </context>
    <context>
        <name>HandoutExport</name>
        <message>
            <source>模型还在写答案：写完并经程序核验后才能导出。</source>
            <translation>模型還在寫答案：寫完並經程式核驗後才能匯出。</translation>
        </message>
        <message>
            <source>没有可导出的答案：请先提问（拒答的问题不能导出）。</source>
            <translation>沒有可匯出的答案：請先提問（拒答的問題不能匯出）。</translation>
        </message>
        <message>
            <source>无法写入 {path}（{exc}）</source>
            <translation>無法寫入 {path}（{exc}）</translation>
        </message>
        <message>
            <source>正在生成 PDF…</source>
            <translation>正在生成 PDF…</translation>
        </message>
        <message>
            <source>PDF 导出失败：{msg}</source>
            <translation>PDF 匯出失敗：{msg}</translation>
        </message>
        <message>
            <source>讲义已导出：{path}</source>
            <translation>講義已匯出：{path}</translation>
        </message>
        <message>
            <source>答案</source>
            <translation>答案</translation>
        </message>
        <message>
            <source>南山问律讲义-{name}</source>
            <translation>南山問律講義-{name}</translation>
        </message>
        <message>
            <source>导出讲义（HTML）</source>
            <translation>匯出講義（HTML）</translation>
        </message>
        <message>
            <source>网页 (*.html)</source>
            <translation>網頁 (*.html)</translation>
        </message>
        <message>
            <source>导出讲义（PDF）</source>
            <translation>匯出講義（PDF）</translation>
        </message>
    </context>
    <context>
        <name>LanguageMenu</name>
        <message>
            <source>界面语言</source>
            <translation>介面語言</translation>
        </message>
        <message>
            <source>简体中文</source>
            <translation>簡體中文</translation>
        </message>
        <message>
            <source>繁体中文</source>
            <translation>繁體中文</translation>
        </message>
    </context>
    <context>
        <name>LibraryDock</name>
        <message>
            <source>书库</source>
            <translation>書庫</translation>
        </message>
        <message>
            <source>按经号或书名筛选（Ctrl+L）</source>
            <translation>按經號或書名篩選（Ctrl+L）</translation>
        </message>
        <message>
            <source>（续）</source>
            <translation>（續）</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>坐标或引用，如 T40n1805_p0345b14、大正藏 40 345b14</source>
            <translation>座標或引用，如 T40n1805_p0345b14、大正藏 40 345b14</translation>
        </message>
        <message>
            <source> · 模型草稿未采用，程序摘录作答</source>
            <translation> · 模型草稿未採用，程式摘錄作答</translation>
        </message>
        <message>
            <source> · 模型作答（已缓存），程序重新核验</source>
            <translation> · 模型作答（已快取），程式重新核驗</translation>
        </message>
        <message>
            <source> · 模型作答，程序核验</source>
            <translation> · 模型作答，程式核驗</translation>
        </message>
        <message>
            <source>南山问律</source>
            <translation>南山問律</translation>
        </message>
        <message>
            <source>问答</source>
            <translation>問答</translation>
        </message>
        <message>
            <source>检索</source>
            <translation>檢索</translation>
        </message>
        <message>
            <source>书签与历史已另存：{path}</source>
            <translation>書籤與歷史已另存：{path}</translation>
        </message>
        <message>
            <source>跳转</source>
            <translation>跳轉</translation>
        </message>
        <message>
            <source>工具栏</source>
            <translation>工具列</translation>
        </message>
        <message>
            <source> 跳到：</source>
            <translation> 跳到：</translation>
        </message>
        <message>
            <source>导出讲义（HTML）…</source>
            <translation>匯出講義（HTML）…</translation>
        </message>
        <message>
            <source>把当前答案连同全部引文与坐标存为网页</source>
            <translation>把目前答案連同全部引文與座標存為網頁</translation>
        </message>
        <message>
            <source>导出讲义（PDF）…</source>
            <translation>匯出講義（PDF）…</translation>
        </message>
        <message>
            <source>把当前答案连同全部引文与坐标存为 PDF</source>
            <translation>把目前答案連同全部引文與座標存為 PDF</translation>
        </message>
        <message>
            <source>导出反馈…</source>
            <translation>匯出回饋…</translation>
        </message>
        <message>
            <source>把在引文与卡片上记下的反馈存为 JSONL，可交给老师或维护者</source>
            <translation>把在引文與卡片上記下的回饋存為 JSONL，可交給老師或維護者</translation>
        </message>
        <message>
            <source>退出</source>
            <translation>退出</translation>
        </message>
        <message>
            <source>放大字号</source>
            <translation>放大字號</translation>
        </message>
        <message>
            <source>缩小字号</source>
            <translation>縮小字號</translation>
        </message>
        <message>
            <source>复原字号</source>
            <translation>復原字號</translation>
        </message>
        <message>
            <source>演示模式</source>
            <translation>簡報模式</translation>
        </message>
        <message>
            <source>全屏、大字、高对比度，三层并排；Esc 退出</source>
            <translation>全螢幕、大字、高對比度，三層並排；Esc 退出</translation>
        </message>
        <message>
            <source>停止生成／退出演示模式</source>
            <translation>停止生成／退出簡報模式</translation>
        </message>
        <message>
            <source>高对比度</source>
            <translation>高對比度</translation>
        </message>
        <message>
            <source>书签</source>
            <translation>書籤</translation>
        </message>
        <message>
            <source>跳到坐标</source>
            <translation>跳到座標</translation>
        </message>
        <message>
            <source>书库</source>
            <translation>書庫</translation>
        </message>
        <message>
            <source>筛选书库</source>
            <translation>篩選書庫</translation>
        </message>
        <message>
            <source>原文检索</source>
            <translation>原文檢索</translation>
        </message>
        <message>
            <source>关于南山问律</source>
            <translation>關於南山問律</translation>
        </message>
        <message>
            <source>检查环境…</source>
            <translation>檢查環境…</translation>
        </message>
        <message>
            <source>检查语料包、字体、模型运行库与用户数据，并说明如何处理</source>
            <translation>檢查語料包、字型、模型執行庫與使用者資料，並說明如何處理</translation>
        </message>
        <message>
            <source>文件</source>
            <translation>檔案</translation>
        </message>
        <message>
            <source>视图</source>
            <translation>檢視</translation>
        </message>
        <message>
            <source>帮助</source>
            <translation>說明</translation>
        </message>
        <message>
            <source>无法保存用户数据（{exc}）。已输入的内容仍在窗口中；可在书签栏点「另存…」存到其他位置，或检查磁盘后再试。</source>
            <translation>無法儲存使用者資料（{exc}）。已輸入的內容仍在視窗中；可在書籤欄點「另存…」存到其他位置，或檢查磁碟後再試。</translation>
        </message>
        <message>
            <source>正在校验语料包…</source>
            <translation>正在校驗語料包…</translation>
        </message>
        <message>
            <source>上一个问题还在检索中，请稍候。</source>
            <translation>上一個問題還在檢索中，請稍候。</translation>
        </message>
        <message>
            <source>请至少保留一个检索用语，或直接重新提问让程序选词。</source>
            <translation>請至少保留一個檢索用語，或直接重新提問讓程式選詞。</translation>
        </message>
        <message>
            <source>模型还在加载：这一问由程序摘录原文作答。</source>
            <translation>模型還在載入：這一問由程式摘錄原文作答。</translation>
        </message>
        <message>
            <source>正在检索…</source>
            <translation>正在檢索…</translation>
        </message>
        <message>
            <source>模型选词、检索、阅读材料…</source>
            <translation>模型選詞、檢索、閱讀材料…</translation>
        </message>
        <message>
            <source>检索、模型阅读材料…</source>
            <translation>檢索、模型閱讀材料…</translation>
        </message>
        <message>
            <source>模型写完、程序核验之后，这里显示材料与引文。</source>
            <translation>模型寫完、程式核驗之後，這裡顯示材料與引文。</translation>
        </message>
        <message>
            <source>模型作答中…</source>
            <translation>模型作答中…</translation>
        </message>
        <message>
            <source>模型生成中…（Esc 停止）</source>
            <translation>模型生成中…（Esc 停止）</translation>
        </message>
        <message>
            <source>正在停止…</source>
            <translation>正在停止…</translation>
        </message>
        <message>
            <source>正在加载模型 {name}…</source>
            <translation>正在載入模型 {name}…</translation>
        </message>
        <message>
            <source>模型已加载：{model}（用时 {seconds} 秒）</source>
            <translation>模型已載入：{model}（用時 {seconds} 秒）</translation>
        </message>
        <message>
            <source>模型提议的{terms}在语料中没有出现，已舍弃。</source>
            <translation>模型提議的{terms}在語料中沒有出現，已捨棄。</translation>
        </message>
        <message>
            <source>此问不作回答。</source>
            <translation>此問不作回答。</translation>
        </message>
        <message>
            <source>类别：超范围 · 拒答</source>
            <translation>類別：超範圍 · 拒答</translation>
        </message>
        <message>
            <source>类别：{category} · {n} 条材料 · 用时 {ms} ms{model}</source>
            <translation>類別：{category} · {n} 條材料 · 用時 {ms} ms{model}</translation>
        </message>
        <message>
            <source>没有材料{n}</source>
            <translation>沒有材料{n}</translation>
        </message>
        <message>
            <source>已复制：{text}</source>
            <translation>已複製：{text}</translation>
        </message>
        <message>
            <source>无法保存书签（{exc}）。书签仍在书签栏中；可点「另存…」存到其他位置，或检查磁盘后再试。</source>
            <translation>無法儲存書籤（{exc}）。書籤仍在書籤欄中；可點「另存…」存到其他位置，或檢查磁碟後再試。</translation>
        </message>
        <message>
            <source>已加书签 {coord}，可在书签栏写备注</source>
            <translation>已加書籤 {coord}，可在書籤欄寫備註</translation>
        </message>
        <message>
            <source>字号 {percent}%</source>
            <translation>字號 {percent}%</translation>
        </message>
    </context>
    <context>
        <name>MessageBar</name>
        <message>
            <source>关闭此消息</source>
            <translation>關閉此訊息</translation>
        </message>
    </context>
    <context>
        <name>ModelController</name>
        <message>
            <source>本地模型需要 llama-cpp-python：在程序目录运行 bash build_scripts/install_llm.sh（一次编译，约 6 分钟，需要 build-essential），然后重新启动南山问律。详见 README「Local model」一节。不用模型也能正常问答。</source>
            <translation>本地模型需要 llama-cpp-python：在程式目錄執行 bash build_scripts/install_llm.sh（一次編譯，約 6 分鐘，需要 build-essential），然後重新啟動南山問律。詳見 README「Local model」一節。不用模型也能正常問答。</translation>
        </message>
        <message>
            <source>模型功能不可用（未安装 llama-cpp-python）</source>
            <translation>模型功能不可用（未安裝 llama-cpp-python）</translation>
        </message>
        <message>
            <source>无法保存设置（{exc}）。</source>
            <translation>無法儲存設定（{exc}）。</translation>
        </message>
        <message>
            <source>上次选用的模型文件不见了：{path}。本次不用模型，可在「模型」菜单重新选择。</source>
            <translation>上次選用的模型檔案不見了：{path}。本次不用模型，可在「模型」選單重新選擇。</translation>
        </message>
        <message>
            <source>{unavailable}，上次选用的模型 {name} 没有加载。{hint}</source>
            <translation>{unavailable}，上次選用的模型 {name} 沒有載入。{hint}</translation>
        </message>
        <message>
            <source>模型正在作答，请先停止或等它写完再换模型。</source>
            <translation>模型正在作答，請先停止或等它寫完再換模型。</translation>
        </message>
        <message>
            <source>上一个模型还在加载，请稍候。</source>
            <translation>上一個模型還在載入，請稍候。</translation>
        </message>
        <message>
            <source> 仍在使用原来的模型 {name}。</source>
            <translation> 仍在使用原來的模型 {name}。</translation>
        </message>
        <message>
            <source> 原来的模型已卸载，现在不用模型作答。</source>
            <translation> 原來的模型已卸載，現在不用模型作答。</translation>
        </message>
        <message>
            <source>模型正在加载或作答，请稍候再改。</source>
            <translation>模型正在載入或作答，請稍候再改。</translation>
        </message>
    </context>
    <context>
        <name>ModelIndicator</name>
        <message>
            <source>模型：不可用</source>
            <translation>模型：不可用</translation>
        </message>
        <message>
            <source>模型：正在加载 {name}…</source>
            <translation>模型：正在載入 {name}…</translation>
        </message>
        <message>
            <source>模型：{model}</source>
            <translation>模型：{model}</translation>
        </message>
        <message>
            <source>模型只组织语言；每条引文与坐标都由程序核验。</source>
            <translation>模型只組織語言；每條引文與座標都由程式核驗。</translation>
        </message>
        <message>
            <source>模型：无</source>
            <translation>模型：無</translation>
        </message>
        <message>
            <source>不用模型：答案由程序从原文摘录。点此选择本地 .gguf 模型。</source>
            <translation>不用模型：答案由程式從原文摘錄。點此選擇本地 .gguf 模型。</translation>
        </message>
    </context>
    <context>
        <name>ModelMenu</name>
        <message>
            <source>不用模型（摘录原文作答）</source>
            <translation>不用模型（摘錄原文作答）</translation>
        </message>
        <message>
            <source>{name} · 上下文 {n}</source>
            <translation>{name} · 上下文 {n}</translation>
        </message>
        <message>
            <source>模型</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>如何安装模型运行库…</source>
            <translation>如何安裝模型執行庫…</translation>
        </message>
        <message>
            <source>选择模型文件…</source>
            <translation>選擇模型檔案…</translation>
        </message>
        <message>
            <source>选择本机上的 .gguf 模型文件；不会下载任何东西</source>
            <translation>選擇本機上的 .gguf 模型檔案；不會下載任何東西</translation>
        </message>
        <message>
            <source>模型文件夹</source>
            <translation>模型資料夾</translation>
        </message>
        <message>
            <source>（文件夹中还没有 .gguf 文件）</source>
            <translation>（資料夾中還沒有 .gguf 檔案）</translation>
        </message>
        <message>
            <source>放模型的文件夹：{folder}</source>
            <translation>放模型的資料夾：{folder}</translation>
        </message>
        <message>
            <source>打开模型文件夹</source>
            <translation>開啟模型資料夾</translation>
        </message>
        <message>
            <source>正在加载：{name}…</source>
            <translation>正在載入：{name}…</translation>
        </message>
        <message>
            <source>当前：{model}</source>
            <translation>目前：{model}</translation>
        </message>
        <message>
            <source>正在检查模型运行库…</source>
            <translation>正在檢查模型執行庫…</translation>
        </message>
        <message>
            <source>对话格式（模型无内置模板时）</source>
            <translation>對話格式（模型無內建模板時）</translation>
        </message>
        <message>
            <source>对话格式：模型内置模板</source>
            <translation>對話格式：模型內建模板</translation>
        </message>
        <message>
            <source>上下文长度</source>
            <translation>上下文長度</translation>
        </message>
        <message>
            <source>{n} 词元</source>
            <translation>{n} 詞元</translation>
        </message>
        <message>
            <source>{n} 词元（默认）</source>
            <translation>{n} 詞元（預設）</translation>
        </message>
        <message>
            <source>清除已缓存的模型回答（{n} 条）</source>
            <translation>清除已快取的模型回答（{n} 條）</translation>
        </message>
        <message>
            <source>生成时限</source>
            <translation>生成時限</translation>
        </message>
        <message>
            <source>{n} 秒</source>
            <translation>{n} 秒</translation>
        </message>
        <message>
            <source>{n} 秒（默认）</source>
            <translation>{n} 秒（預設）</translation>
        </message>
        <message>
            <source>未能清除模型回答缓存（{exc}）。</source>
            <translation>未能清除模型回答快取（{exc}）。</translation>
        </message>
        <message>
            <source>已清除 {n} 条缓存的模型回答。</source>
            <translation>已清除 {n} 條快取的模型回答。</translation>
        </message>
        <message>
            <source>选择模型文件</source>
            <translation>選擇模型檔案</translation>
        </message>
        <message>
            <source>GGUF 模型 (*.gguf);;所有文件 (*)</source>
            <translation>GGUF 模型 (*.gguf);;所有檔案 (*)</translation>
        </message>
        <message>
            <source>无法创建模型文件夹 {folder}（{exc}）</source>
            <translation>無法建立模型資料夾 {folder}（{exc}）</translation>
        </message>
        <message>
            <source>请把 .gguf 文件放到：{folder}</source>
            <translation>請把 .gguf 檔案放到：{folder}</translation>
        </message>
        <message>
            <source>已改为不用模型：答案由程序从原文摘录。</source>
            <translation>已改為不用模型：答案由程式從原文摘錄。</translation>
        </message>
    </context>
    <context>
        <name>NotePopup</name>
        <message>
            <source>已记下反馈</source>
            <translation>已記下回饋</translation>
        </message>
        <message>
            <source>附注（可不填），如：讲的是另一条戒；{n} 字以内</source>
            <translation>附註（可不填），如：講的是另一條戒；{n} 字以內</translation>
        </message>
        <message>
            <source>保存附注</source>
            <translation>儲存附註</translation>
        </message>
        <message>
            <source>不用附注</source>
            <translation>不用附註</translation>
        </message>
        <message>
            <source>上一条的附注未能保存（过长或无法写入），仍在框中；新的{what}已记下。</source>
            <translation>上一條的附註未能儲存（過長或無法寫入），仍在框中；新的{what}已記下。</translation>
        </message>
        <message>
            <source>已记下 {what}。
可以附一句说明（不填也已记下）：</source>
            <translation>已記下 {what}。
可以附一句說明（不填也已記下）：</translation>
        </message>
        <message>
            <source>无法保存附注（{exc}）。</source>
            <translation>無法儲存附註（{exc}）。</translation>
        </message>
    </context>
    <context>
        <name>OtherPane</name>
        <message>
            <source>三层之外的律部著作：本问最相关的段落在其中。点标题可折叠。</source>
            <translation>三層之外的律部著作：本問最相關的段落在其中。點標題可摺疊。</translation>
        </message>
        <message>
            <source>其他</source>
            <translation>其他</translation>
        </message>
        <message>
            <source>展开「其他」：三层之外的律部著作</source>
            <translation>展開「其他」：三層之外的律部著作</translation>
        </message>
        <message>
            <source>其他（{0}）</source>
            <translation>其他（{0}）</translation>
        </message>
        <message>
            <source>折叠「其他」</source>
            <translation>摺疊「其他」</translation>
        </message>
    </context>
    <context>
        <name>PackChoice</name>
        <message>
            <source>上次选用的「全部律部」语料包无法打开（{0}），已改用默认语料包。可在 文件 → 语料包 中重新选择或重新生成。</source>
            <translation>上次選用的「全部律部」語料包無法開啟（{0}），已改用預設語料包。可在 檔案 → 語料包 中重新選擇或重新生成。</translation>
        </message>
    </context>
    <context>
        <name>PackMenu</name>
        <message>
            <source>语料包</source>
            <translation>語料包</translation>
        </message>
        <message>
            <source>默认（{0} 部）</source>
            <translation>預設（{0} 部）</translation>
        </message>
        <message>
            <source>全部律部（{0} 部）</source>
            <translation>全部律部（{0} 部）</translation>
        </message>
        <message>
            <source>全部律部（尚未生成，选此生成）</source>
            <translation>全部律部（尚未生成，選此生成）</translation>
        </message>
        <message>
            <source>正在作答：答完后再切换语料包。</source>
            <translation>正在作答：答完後再切換語料包。</translation>
        </message>
        <message>
            <source>无法打开语料包 {0}：{1}</source>
            <translation>無法開啟語料包 {0}：{1}</translation>
        </message>
        <message>
            <source>已换用语料包：{0}</source>
            <translation>已換用語料包：{0}</translation>
        </message>
        <message>
            <source>「全部律部」语料包尚未生成。现在从 CBETA 目录生成吗？

共约 {0} 部，约需 5–6 分钟、1.5 GB 内存；生成到 {1}，与默认语料包并存，不会覆盖它。生成中可以取消。</source>
            <translation>「全部律部」語料包尚未生成。現在從 CBETA 目錄生成嗎？

共約 {0} 部，約需 5–6 分鐘、1.5 GB 記憶體；生成到 {1}，與預設語料包並存，不會覆蓋它。生成中可以取消。</translation>
        </message>
        <message>
            <source>生成全部律部语料包</source>
            <translation>生成全部律部語料包</translation>
        </message>
        <message>
            <source>生成</source>
            <translation>生成</translation>
        </message>
        <message>
            <source>不生成</source>
            <translation>不生成</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;生成「全部律部」语料包&lt;/b&gt;：CBETA 律部的全部著作，默认 21 部之外的归入「其他律部」「其他注疏」，只在书库、原文检索和答案的「其他」栏中出现。&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;生成「全部律部」語料包&lt;/b&gt;：CBETA 律部的全部著作，預設 21 部之外的歸入「其他律部」「其他註疏」，只在書庫、原文檢索和答案的「其他」欄中出現。&lt;/p&gt;</translation>
        </message>
    </context>
    <context>
        <name>PageDiagram</name>
        <message>
            <source>本页：{columns}</source>
            <translation>本頁：{columns}</translation>
        </message>
    </context>
    <context>
        <name>PageLocator</name>
        <message>
            <source>&lt;b&gt;页面定位&lt;/b&gt;</source>
            <translation>&lt;b&gt;頁面定位&lt;/b&gt;</translation>
        </message>
    </context>
    <context>
        <name>QuestionBar</name>
        <message>
            <source>用白话提问，例如：什么情况下会被赶出僧团？</source>
            <translation>用白話提問，例如：什麼情況下會被趕出僧團？</translation>
        </message>
        <message>
            <source>按回车提问；下拉可选以前问过的问题</source>
            <translation>按回車提問；下拉可選以前問過的問題</translation>
        </message>
        <message>
            <source>提问</source>
            <translation>提問</translation>
        </message>
        <message>
            <source>停止</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>停止模型生成（Esc）：已写出的部分照样核验后显示</source>
            <translation>停止模型生成（Esc）：已寫出的部分照樣核驗後顯示</translation>
        </message>
    </context>
    <context>
        <name>ReaderTab</name>
        <message>
            <source>◀ 上一卷</source>
            <translation>◀ 上一卷</translation>
        </message>
        <message>
            <source>打开本经的上一卷</source>
            <translation>開啟本經的上一卷</translation>
        </message>
        <message>
            <source>下一卷 ▶</source>
            <translation>下一卷 ▶</translation>
        </message>
        <message>
            <source>打开本经的下一卷</source>
            <translation>開啟本經的下一卷</translation>
        </message>
        <message>
            <source>缩小阅读字号</source>
            <translation>縮小閱讀字號</translation>
        </message>
        <message>
            <source>放大阅读字号</source>
            <translation>放大閱讀字號</translation>
        </message>
        <message>
            <source>新文豐行号</source>
            <translation>新文豐行號</translation>
        </message>
        <message>
            <source>在页边显示卍續藏对应的新文豐版（R）行号</source>
            <translation>在頁邊顯示卍續藏對應的新文豐版（R）行號</translation>
        </message>
        <message>
            <source>页面定位</source>
            <translation>頁面定位</translation>
        </message>
        <message>
            <source>显示或隐藏页面定位图</source>
            <translation>顯示或隱藏頁面定位圖</translation>
        </message>
        <message>
            <source>加书签</source>
            <translation>加書籤</translation>
        </message>
        <message>
            <source>为当前行加书签（可写备注）</source>
            <translation>為目前這一行加書籤（可寫備註）</translation>
        </message>
        <message>
            <source>在本卷中查找（繁简、异体皆可）</source>
            <translation>在本卷中尋找（繁簡、異體皆可）</translation>
        </message>
        <message>
            <source>上一处</source>
            <translation>上一處</translation>
        </message>
        <message>
            <source>下一处</source>
            <translation>下一處</translation>
        </message>
        <message>
            <source>查找：</source>
            <translation>尋找：</translation>
        </message>
        <message>
            <source>复制此行原文</source>
            <translation>複製此行原文</translation>
        </message>
        <message>
            <source>复制坐标</source>
            <translation>複製座標</translation>
        </message>
        <message>
            <source>复制 CBETA 引用（此行）</source>
            <translation>複製 CBETA 引用（此行）</translation>
        </message>
        <message>
            <source>查找</source>
            <translation>尋找</translation>
        </message>
        <message>
            <source>设置未能保存（{exc}）。</source>
            <translation>設定未能儲存（{exc}）。</translation>
        </message>
        <message>
            <source>{coord} 不在当前这一卷中</source>
            <translation>{coord} 不在目前這一卷中</translation>
        </message>
        <message>
            <source>阅读</source>
            <translation>閱讀</translation>
        </message>
        <message>
            <source>共 {n} 处</source>
            <translation>共 {n} 處</translation>
        </message>
        <message>
            <source>本卷没有找到</source>
            <translation>本卷沒有找到</translation>
        </message>
        <message>
            <source>已复制 {coord} 的原文</source>
            <translation>已複製 {coord} 的原文</translation>
        </message>
        <message>
            <source>已复制坐标 {coord}</source>
            <translation>已複製座標 {coord}</translation>
        </message>
        <message>
            <source>已复制此行的 CBETA 引用</source>
            <translation>已複製此行的 CBETA 引用</translation>
        </message>
    </context>
    <context>
        <name>ReaderTabs</name>
        <message>
            <source>阅读</source>
            <translation>閱讀</translation>
        </message>
    </context>
    <context>
        <name>SearchTab</name>
        <message>
            <source>书名</source>
            <translation>書名</translation>
        </message>
        <message>
            <source>卷</source>
            <translation>卷</translation>
        </message>
        <message>
            <source>坐标</source>
            <translation>座標</translation>
        </message>
        <message>
            <source>左文</source>
            <translation>左文</translation>
        </message>
        <message>
            <source>检索词</source>
            <translation>檢索詞</translation>
        </message>
        <message>
            <source>右文</source>
            <translation>右文</translation>
        </message>
        <message>
            <source>检索原文词句（繁简、异体皆可；几个词以空格分开，须同在一段）</source>
            <translation>檢索原文詞句（繁簡、異體皆可；幾個詞以空格分開，須同在一段）</translation>
        </message>
        <message>
            <source>不限</source>
            <translation>不限</translation>
        </message>
        <message>
            <source> 字内</source>
            <translation> 字內</translation>
        </message>
        <message>
            <source>几个词句须在这么多字之内（0 = 同一段内即可）</source>
            <translation>幾個詞句須在這麼多字之內（0 = 同一段內即可）</translation>
        </message>
        <message>
            <source>全部各层</source>
            <translation>全部各層</translation>
        </message>
        <message>
            <source>全部经典</source>
            <translation>全部經典</translation>
        </message>
        <message>
            <source>检索</source>
            <translation>檢索</translation>
        </message>
        <message>
            <source>导出 CSV…</source>
            <translation>匯出 CSV…</translation>
        </message>
        <message>
            <source>输入词句后按回车。</source>
            <translation>輸入詞句後按回車。</translation>
        </message>
        <message>
            <source>上一页</source>
            <translation>上一頁</translation>
        </message>
        <message>
            <source>下一页</source>
            <translation>下一頁</translation>
        </message>
        <message>
            <source>已换语料包，按回车重新检索。</source>
            <translation>已換語料包，按回車重新檢索。</translation>
        </message>
        <message>
            <source>请输入要检索的词句，例如：突吉羅</source>
            <translation>請輸入要檢索的詞句，例如：突吉羅</translation>
        </message>
        <message>
            <source>检索中…</source>
            <translation>檢索中…</translation>
        </message>
        <message>
            <source>{phrases}共 {count} 处：{layers}。{works}{more}</source>
            <translation>{phrases}共 {count} 處：{layers}。{works}{more}</translation>
        </message>
        <message>
            <source>{phrases}共 0 处。</source>
            <translation>{phrases}共 0 處。</translation>
        </message>
        <message>
            <source>未能导出（{exc}）。请换一个位置再试。</source>
            <translation>未能匯出（{exc}）。請換一個位置再試。</translation>
        </message>
        <message>
            <source>已导出 {n} 条：{path}</source>
            <translation>已匯出 {n} 條：{path}</translation>
        </message>
        <message>
            <source>导出检索结果</source>
            <translation>匯出檢索結果</translation>
        </message>
        <message>
            <source>检索_{phrase}.csv</source>
            <translation>檢索_{phrase}.csv</translation>
        </message>
    </context>
    <context>
        <name>Task</name>
        <message>
            <source>内部错误（{kind}：{exc}）。请把这条信息告诉开发者。</source>
            <translation>內部錯誤（{kind}：{exc}）。請把這條訊息告訴開發者。</translation>
        </message>
    </context>
    <context>
        <name>TermChips</name>
        <message>
            <source>添加用语（律典原文的写法）</source>
            <translation>新增用語（律典原文的寫法）</translation>
        </message>
        <message>
            <source>添加</source>
            <translation>新增</translation>
        </message>
        <message>
            <source>重新检索</source>
            <translation>重新檢索</translation>
        </message>
        <message>
            <source>只用上面这些检索用语重新检索</source>
            <translation>只用上面這些檢索用語重新檢索</translation>
        </message>
        <message>
            <source>检索用语：</source>
            <translation>檢索用語：</translation>
        </message>
        <message>
            <source>类别：{category}</source>
            <translation>類別：{category}</translation>
        </message>
        <message>
            <source>{term}已经在检索用语里了</source>
            <translation>{term}已經在檢索用語裡了</translation>
        </message>
    </context>
    <context>
        <name>answer_html</name>
        <message>
            <source>〔中略〕</source>
            <translation>〔中略〕</translation>
        </message>
        <message>
            <source>材料{n}</source>
            <translation>材料{n}</translation>
        </message>
        <message>
            <source>（原写材料{n}，核验时更正）</source>
            <translation>（原寫材料{n}，核驗時更正）</translation>
        </message>
        <message>
            <source>复制引文</source>
            <translation>複製引文</translation>
        </message>
        <message>
            <source>把这条引文标为「{label}」（只记在本机）</source>
            <translation>把這條引文標為「{label}」（只記在本機）</translation>
        </message>
        <message>
            <source>把这张卡片标为「{label}」（只记在本机）</source>
            <translation>把這張卡片標為「{label}」（只記在本機）</translation>
        </message>
        <message>
            <source>依义推及</source>
            <translation>依義推及</translation>
        </message>
        <message>
            <source>所问主题</source>
            <translation>所問主題</translation>
        </message>
        <message>
            <source>未能确定此问对应律中的哪一条，以下材料按检索用语找到，未必切题。</source>
            <translation>未能確定此問對應律中的哪一條，以下材料按檢索用語找到，未必切題。</translation>
        </message>
        <message>
            <source>您是否想问：{links}</source>
            <translation>您是否想問：{links}</translation>
        </message>
        <message>
            <source>可以换个说法，或直接写出戒名、事名（如「非時食戒」「安居」）。</source>
            <translation>可以換個說法，或直接寫出戒名、事名（如「非時食戒」「安居」）。</translation>
        </message>
        <message>
            <source>引文已按当前语料包重新核验</source>
            <translation>引文已按目前語料包重新核驗</translation>
        </message>
        <message>
            <source>重新生成</source>
            <translation>重新生成</translation>
        </message>
        <message>
            <source>隐藏模型草稿 ▾</source>
            <translation>隱藏模型草稿 ▾</translation>
        </message>
        <message>
            <source>查看模型草稿 ▸</source>
            <translation>檢視模型草稿 ▸</translation>
        </message>
        <message>
            <source>模型草稿（未采用：未经核验，不能引用，也不会导出）</source>
            <translation>模型草稿（未採用：未經核驗，不能引用，也不會匯出）</translation>
        </message>
        <message>
            <source>此问不作回答。</source>
            <translation>此問不作回答。</translation>
        </message>
        <message>
            <source>可以这样问：{link}</source>
            <translation>可以這樣問：{link}</translation>
        </message>
        <message>
            <source>模型生成中（未核验）…</source>
            <translation>模型生成中（未核驗）…</translation>
        </message>
        <message>
            <source>以下是模型正在写的草稿：引文与出处都还没有核验，不能引用，也不会导出。写完后由程序核验过的答案替换。</source>
            <translation>以下是模型正在寫的草稿：引文與出處都還沒有核驗，不能引用，也不會匯出。寫完後由程式核驗過的答案替換。</translation>
        </message>
        <message>
            <source>本材料未被引用</source>
            <translation>本材料未被引用</translation>
        </message>
        <message>
            <source>反馈：</source>
            <translation>回饋：</translation>
        </message>
        <message>
            <source>引文</source>
            <translation>引文</translation>
        </message>
        <message>
            <source>（该段起始行）</source>
            <translation>（該段起始行）</translation>
        </message>
        <message>
            <source>本层没有检索到材料。</source>
            <translation>本層沒有檢索到材料。</translation>
        </message>
    </context>
    <context>
        <name>citations</name>
        <message>
            <source>词表</source>
            <translation>詞表</translation>
        </message>
        <message>
            <source>问句</source>
            <translation>問句</translation>
        </message>
        <message>
            <source>词对照</source>
            <translation>詞對照</translation>
        </message>
        <message>
            <source>罪名</source>
            <translation>罪名</translation>
        </message>
        <message>
            <source>自定</source>
            <translation>自定</translation>
        </message>
        <message>
            <source>模型</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>主题</source>
            <translation>主題</translation>
        </message>
        <message>
            <source>行级</source>
            <translation>行級</translation>
        </message>
        <message>
            <source>段级</source>
            <translation>段級</translation>
        </message>
        <message>
            <source>此处出处未通过核验</source>
            <translation>此處出處未通過核驗</translation>
        </message>
        <message>
            <source>线索</source>
            <translation>線索</translation>
        </message>
        <message>
            <source>注释对应</source>
            <translation>註釋對應</translation>
        </message>
        <message>
            <source>检索</source>
            <translation>檢索</translation>
        </message>
        <message>
            <source>律本</source>
            <translation>律本</translation>
        </message>
        <message>
            <source>道宣</source>
            <translation>道宣</translation>
        </message>
        <message>
            <source>元照</source>
            <translation>元照</translation>
        </message>
        <message>
            <source>其他</source>
            <translation>其他</translation>
        </message>
        <message>
            <source>（此处出处未通过核验）</source>
            <translation>（此處出處未通過核驗）</translation>
        </message>
        <message>
            <source>（段级：坐标为该段起始行）</source>
            <translation>（段級：座標為該段起始行）</translation>
        </message>
    </context>
    <context>
        <name>display</name>
        <message>
            <source>组字式 {formula}</source>
            <translation>組字式 {formula}</translation>
        </message>
        <message>
            <source>通用字 {char}</source>
            <translation>通用字 {char}</translation>
        </message>
        <message>
            <source>原文为 CBETA 缺字 {cb}，此处显示「{form}」；引文与坐标均按原文</source>
            <translation>原文為 CBETA 缺字 {cb}，此處顯示「{form}」；引文與座標均按原文</translation>
        </message>
    </context>
    <context>
        <name>doctor</name>
        <message>
            <source>中文字体</source>
            <translation>中文字型</translation>
        </message>
        <message>
            <source>系统中没有能显示中文的字体</source>
            <translation>系統中沒有能顯示中文的字型</translation>
        </message>
        <message>
            <source>安装 Noto CJK（Debian/Ubuntu：sudo apt install fonts-noto-cjk；Windows/macOS 自带）</source>
            <translation>安裝 Noto CJK（Debian/Ubuntu：sudo apt install fonts-noto-cjk；Windows/macOS 自帶）</translation>
        </message>
        <message>
            <source>正文字体 {font} 缺字：{missing}（会显示为方框）</source>
            <translation>正文字型 {font} 缺字：{missing}（會顯示為方框）</translation>
        </message>
        <message>
            <source>安装 Noto Serif CJK 或 TW-Kai 等收字较全的字体</source>
            <translation>安裝 Noto Serif CJK 或 TW-Kai 等收字較全的字型</translation>
        </message>
        <message>
            <source>界面 {ui} · 正文 {text}（共 {n} 种中文字体）</source>
            <translation>介面 {ui} · 正文 {text}（共 {n} 種中文字型）</translation>
        </message>
    </context>
    <context>
        <name>feedback</name>
        <message>
            <source>引文「{quote}」</source>
            <translation>引文「{quote}」</translation>
        </message>
        <message>
            <source>材料{n}</source>
            <translation>材料{n}</translation>
        </message>
    </context>
    <context>
        <name>handout</name>
        <message>
            <source>（段级：该段起始行）</source>
            <translation>（段級：該段起始行）</translation>
        </message>
        <message>
            <source>（原写材料{n}，核验时更正）</source>
            <translation>（原寫材料{n}，核驗時更正）</translation>
        </message>
        <message>
            <source>（材料{n}）</source>
            <translation>（材料{n}）</translation>
        </message>
        <message>
            <source>（本层没有材料）</source>
            <translation>（本層沒有材料）</translation>
        </message>
        <message>
            <source>&lt;h1&gt;南山问律 · 讲义&lt;/h1&gt;</source>
            <translation>&lt;h1&gt;南山問律 · 講義&lt;/h1&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;问题：&lt;/b&gt;{question}&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;問題：&lt;/b&gt;{question}&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;b&gt;类别：&lt;/b&gt;{category}　&lt;b&gt;检索用语：&lt;/b&gt;{terms}&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;b&gt;類別：&lt;/b&gt;{category}　&lt;b&gt;檢索用語：&lt;/b&gt;{terms}&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;h2&gt;答案&lt;/h2&gt;</source>
            <translation>&lt;h2&gt;答案&lt;/h2&gt;</translation>
        </message>
        <message>
            <source>&lt;h2&gt;三层引文与出处&lt;/h2&gt;</source>
            <translation>&lt;h2&gt;三層引文與出處&lt;/h2&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;small&gt;坐标说明：行级＝引文第一个字所在的印本行；段级＝只能定位到该段起始行；「此处出处未通过核验」＝未能在材料中找到该句，保留原句但不给出处。坐标形如 T40n1805_p0345b14＝大正藏第40冊 No.1805 第345頁 中欄 第14行。&lt;/small&gt;&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;small&gt;座標說明：行級＝引文第一個字所在的印本行；段級＝只能定位到該段起始行；「此處出處未通過核驗」＝未能在材料中找到該句，保留原句但不給出處。座標形如 T40n1805_p0345b14＝大正藏第40冊 No.1805 第345頁 中欄 第14行。&lt;/small&gt;&lt;/p&gt;</translation>
        </message>
        <message>
            <source>&lt;p&gt;&lt;small&gt;原文出自 {distributor}（{edition}）。{licence}　由南山问律生成于 {time}。&lt;/small&gt;&lt;/p&gt;</source>
            <translation>&lt;p&gt;&lt;small&gt;原文出自 {distributor}（{edition}）。{licence}　由南山問律生成於 {time}。&lt;/small&gt;&lt;/p&gt;</translation>
        </message>
        <message>
            <source>南山问律讲义：{question}</source>
            <translation>南山問律講義：{question}</translation>
        </message>
        <message>
            <source>南山问律</source>
            <translation>南山問律</translation>
        </message>
    </context>
    <context>
        <name>main</name>
        <message>
            <source>南山问律</source>
            <translation>南山問律</translation>
        </message>
        <message>
            <source>没有语料包，程序退出。</source>
            <translation>沒有語料包，程式退出。</translation>
        </message>
    </context>
    <context>
        <name>theme</name>
        <message>
            <source>标准</source>
            <translation>標準</translation>
        </message>
        <message>
            <source>高对比度</source>
            <translation>高對比度</translation>
        </message>
    </context>
    <context>
        <name>welcome</name>
        <message>
            <source>可以这样问</source>
            <translation>可以這樣問</translation>
        </message>
        <message>
            <source>点一下即提问</source>
            <translation>點一下即提問</translation>
        </message>
        <message>
            <source>最近问过</source>
            <translation>最近問過</translation>
        </message>
        <message>
            <source>上栏</source>
            <translation>上欄</translation>
        </message>
        <message>
            <source>中栏</source>
            <translation>中欄</translation>
        </message>
        <message>
            <source>下栏</source>
            <translation>下欄</translation>
        </message>
        <message>
            <source>第四栏</source>
            <translation>第四欄</translation>
        </message>
        <message>
            <source>大正藏第{vol}册、第{work}号、第{page}页{column}（{col}）第{line}行</source>
            <translation>大正藏第{vol}冊、第{work}號、第{page}頁{column}（{col}）第{line}行</translation>
        </message>
        <message>
            <source>坐标怎么读</source>
            <translation>座標怎麼讀</translation>
        </message>
        <message>
            <source>答案只引 CBETA 原文，每处引文都附坐标，如 {coord} ＝ {reading}，点它即打开原书那一行。</source>
            <translation>答案只引 CBETA 原文，每處引文都附座標，如 {coord} ＝ {reading}，點它即開啟原書那一行。</translation>
        </message>
        <message>
            <source>引文后标{line}的已逐字核对到这一行；标{paragraph}的只核对到所在段落，坐标是段首一行。</source>
            <translation>引文後標{line}的已逐字核對到這一行；標{paragraph}的只核對到所在段落，座標是段首一行。</translation>
        </message>
    </context>
</TS>
